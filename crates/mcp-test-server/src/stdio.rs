//! The stdio front end: newline-delimited JSON-RPC on stdin and stdout.
//! <https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio>

use std::io;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, BufWriter};
use tokio::sync::mpsc;

use crate::options::ServerOptions;
use crate::server::Server;
use crate::sink::{OutFrame, Sink};

/// How long queued output may take to drain once the client closed our stdin.
const DRAIN_BOUND: Duration = Duration::from_secs(2);

/// Run a server on this process's stdin and stdout until stdin closes.
///
/// Commits the start-up faults first: `--stderr` text, `--exit-on-start` (which ends the
/// process here, before anything is read) and `--noisy-stderr`.
pub async fn serve_stdio(options: ServerOptions) -> io::Result<()> {
    commit_startup_faults(&options);
    serve(
        Server::new(options),
        tokio::io::stdin(),
        tokio::io::stdout(),
    )
    .await
}

/// `--stderr` text, `--exit-on-start` (which ends the process here) and `--noisy-stderr`:
/// what every front end does before serving.
pub(crate) fn commit_startup_faults(options: &ServerOptions) {
    if let Some(text) = &options.stderr_text {
        eprintln!("{text}");
    }
    if let Some(code) = options.exit_on_start {
        std::process::exit(code);
    }
    if options.noisy_stderr {
        for i in 0..200 {
            eprintln!("mcp-test-server: start-up noise line {i} of 200");
        }
    }
}

/// Run `server` on any byte streams: one JSON-RPC message per line in, one per line out.
///
/// Returns when `input` ends (in-flight requests are abandoned) or `output` fails.
pub async fn serve<R, W>(server: Server, input: R, output: W) -> io::Result<()>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Send + Unpin + 'static,
{
    let (sink, outgoing) = Sink::channel();
    let mut writer = tokio::spawn(write_frames(outgoing, output));
    let read_result = tokio::select! {
        read = read_lines(&server, &sink, input) => read,
        written = &mut writer => return flatten(written),
    };
    server.shutdown();
    drop(sink);
    // The writer ends once every sink clone is gone (aborted tasks drop theirs).
    let write_result = match tokio::time::timeout(DRAIN_BOUND, &mut writer).await {
        Ok(joined) => flatten(joined),
        Err(_) => {
            writer.abort();
            Ok(())
        }
    };
    read_result.and(write_result)
}

async fn read_lines<R: AsyncRead + Unpin>(
    server: &Server,
    sink: &Sink,
    input: R,
) -> io::Result<()> {
    let mut input = BufReader::new(input);
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line).await? == 0 {
            return Ok(());
        }
        let text = line.trim_ascii();
        if !text.is_empty() {
            server.handle(text, sink);
        }
    }
}

/// The one writer: each frame plus `\n`, flushed when the queue runs dry so a burst costs
/// one flush.
async fn write_frames<W: AsyncWrite + Unpin>(
    mut frames: mpsc::UnboundedReceiver<OutFrame>,
    output: W,
) -> io::Result<()> {
    let mut output = BufWriter::new(output);
    while let Some(frame) = frames.recv().await {
        write_frame(&mut output, &frame).await?;
        while let Ok(frame) = frames.try_recv() {
            write_frame(&mut output, &frame).await?;
        }
        output.flush().await?;
    }
    output.flush().await
}

async fn write_frame<W: AsyncWrite + Unpin>(output: &mut W, frame: &[u8]) -> io::Result<()> {
    output.write_all(frame).await?;
    output.write_all(b"\n").await
}

fn flatten(joined: Result<io::Result<()>, tokio::task::JoinError>) -> io::Result<()> {
    match joined {
        Ok(Ok(())) => Ok(()),
        // The client closed our stdout: it is gone, which is not our failure.
        Ok(Err(e)) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Ok(Err(e)) => Err(e),
        Err(e) => Err(io::Error::other(e)),
    }
}
