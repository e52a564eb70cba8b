//! Starting the server process: command, arguments, environment, working directory, pipes,
//! its own process group, and the reaper thread.

use std::io;
use std::process::{Command, Stdio};
use std::sync::Arc;

use mcp_jsonrpc::Error;

use crate::Error as StdioError;
use tokio::process::{ChildStderr, ChildStdin, ChildStdout};
use tokio::sync::watch;

use crate::config::{StderrMode, StdioConfig};
use crate::process_group::{Exited, ProcessGroup, Stop, own_group, start_reaper};

/// A running server and its pipes.
pub(crate) struct Spawned {
    pub(crate) stdin: ChildStdin,
    pub(crate) stdout: ChildStdout,
    pub(crate) stderr: Option<ChildStderr>,
    pub(crate) group: Arc<ProcessGroup>,
    pub(crate) exit: watch::Receiver<Option<Exited>>,
}

/// Spawn the server described by `config`. Must run inside a tokio runtime (the pipes are
/// registered with its reactor).
pub(crate) fn spawn(config: &StdioConfig) -> Result<Spawned, Error> {
    let spawn_error = |source: io::Error| {
        // A missing working directory also fails with NotFound; only call it "command not
        // found" when the directory is there.
        let not_found = source.kind() == io::ErrorKind::NotFound
            && config.cwd.as_ref().is_none_or(|dir| dir.is_dir());
        Error::from(StdioError::Spawn {
            command: config.command.clone(),
            source,
            not_found,
            stderr_tail: None,
        })
    };

    let mut command = Command::new(&config.command);
    // Only what the config lets through of our environment (see `environment`).
    if let Some(inherited) = crate::environment::inherited(config, std::env::vars_os()) {
        command.env_clear().envs(inherited);
    }
    command
        .args(&config.args)
        .envs(&config.env)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(match config.stderr {
            StderrMode::Capture => Stdio::piped(),
            StderrMode::Inherit => Stdio::inherit(),
            StderrMode::Discard => Stdio::null(),
        });
    // Its own process group (Unix): the shutdown sequence signals the server and everything
    // it started, and a Ctrl-C in the client's terminal does not reach the server directly.
    own_group(&mut command);
    if let Some(dir) = &config.cwd {
        command.current_dir(dir);
    }
    let mut child = command.spawn().map_err(spawn_error)?;
    let stdin = child.stdin.take();
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();
    let (group, exit) = start_reaper(child).map_err(spawn_error)?;

    // From here on the reaper owns the child; on any failure kill the group and let the
    // reaper collect it.
    let pipes = (|| -> io::Result<_> {
        let missing = || io::Error::other("a piped stdio stream is missing");
        let stdin = ChildStdin::from_std(stdin.ok_or_else(missing)?)?;
        let stdout = ChildStdout::from_std(stdout.ok_or_else(missing)?)?;
        let stderr = stderr.map(ChildStderr::from_std).transpose()?;
        Ok((stdin, stdout, stderr))
    })();
    match pipes {
        Ok((stdin, stdout, stderr)) => Ok(Spawned {
            stdin,
            stdout,
            stderr,
            group,
            exit,
        }),
        Err(e) => {
            group.signal(Stop::Kill);
            Err(spawn_error(e))
        }
    }
}
