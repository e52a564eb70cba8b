//! The stdio server: plain blocking reads and writes on one thread — no runtime, no
//! tasks. Replies go to a buffer that is flushed once the input has no complete line
//! left, i.e. once per burst of requests, not once per reply.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::os::fd::AsFd;

use super::{Replied, Revision, handle_message};

/// Serve MCP over this process's stdin/stdout until stdin closes.
pub fn serve_stdio(revision: Revision) -> io::Result<()> {
    // Own duplicates of fds 0 and 1: std's Stdout is line-buffered (a flush per reply) and
    // its Stdin hides how much input is already buffered.
    let input = File::from(io::stdin().as_fd().try_clone_to_owned()?);
    let output = File::from(io::stdout().as_fd().try_clone_to_owned()?);
    let mut reader = BufReader::with_capacity(64 * 1024, input);
    let mut writer = BufWriter::with_capacity(64 * 1024, output);
    let mut line = Vec::with_capacity(4096);
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line)? == 0 {
            writer.flush()?;
            return Ok(());
        }
        let message = line.trim_ascii();
        if !message.is_empty()
            && handle_message(message, revision, &mut writer)? != Replied::Nothing
        {
            writer.write_all(b"\n")?;
        }
        if !reader.buffer().contains(&b'\n') {
            writer.flush()?; // end of the burst: the next read may block
        }
    }
}
