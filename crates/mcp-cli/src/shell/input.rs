//! Where the shell's lines come from: stdin as it is, or on a terminal a prompt with line
//! editing, tab completion (`completion.rs`) and a history kept across runs in the config
//! directory (`shell_history`, readable by you only).
//!
//! Ctrl-C at the prompt abandons the line; at an empty prompt it is reported as such, so
//! the shell can leave on the second one (see `mod.rs`).

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use rustyline::history::FileHistory;
use rustyline::{
    Cmd, CompletionType, ConditionalEventHandler, Config, Editor, Event, EventContext,
    EventHandler, KeyEvent, RepeatCount,
};
use tokio::io::AsyncBufReadExt as _;

use super::completion::{ShellHelper, Vocabulary};

/// The history file in the config directory.
const HISTORY_FILE: &str = "shell_history";
/// Lines kept in the history.
const HISTORY_LINES: usize = 1000;
/// A larger history file is not read (1000 lines of commands are far smaller).
const MAX_HISTORY_BYTES: u64 = 4 * 1024 * 1024;

/// What reading a line gave.
#[derive(Debug, PartialEq)]
pub(super) enum Read {
    /// A line.
    Line(String),
    /// Ctrl-C at the prompt; `empty`: nothing was typed.
    Interrupted { empty: bool },
    /// End of input (Ctrl-D on a terminal).
    End,
}

type ShellEditor = Editor<ShellHelper, FileHistory>;

/// The shell's input.
pub(super) enum Input {
    /// Not a terminal: lines as they come.
    Piped(tokio::io::Lines<tokio::io::BufReader<tokio::io::Stdin>>),
    /// A terminal.
    Terminal(Box<Prompt>),
}

/// The prompt on a terminal.
pub(super) struct Prompt {
    /// `None` while a line is being read (on a blocking thread).
    editor: Option<ShellEditor>,
    vocabulary: Arc<Mutex<Vocabulary>>,
    /// Set by the Ctrl-C binding: whether the line was empty.
    interrupted_empty: Arc<AtomicBool>,
    history: Option<PathBuf>,
}

impl Input {
    /// Lines from stdin as they come.
    pub(super) fn piped() -> Self {
        Self::Piped(tokio::io::BufReader::new(tokio::io::stdin()).lines())
    }

    /// The terminal's editor, or plain lines if it cannot be set up.
    pub(super) fn terminal() -> Self {
        let interrupted_empty = Arc::new(AtomicBool::new(false));
        let vocabulary = Arc::new(Mutex::new(Vocabulary::default()));
        let config = Config::builder()
            .completion_type(CompletionType::List)
            .auto_add_history(false)
            .max_history_size(HISTORY_LINES)
            .and_then(|c| c.history_ignore_dups(true))
            .map(rustyline::config::Builder::build);
        let editor = config.and_then(ShellEditor::with_config);
        let Ok(mut editor) = editor else {
            return Self::piped();
        };
        editor.set_helper(Some(ShellHelper {
            vocabulary: Arc::clone(&vocabulary),
        }));
        editor.bind_sequence(
            KeyEvent::ctrl('C'),
            EventHandler::Conditional(Box::new(CtrlC(Arc::clone(&interrupted_empty)))),
        );
        let history = history_file();
        if let Some(path) = &history {
            load_history(&mut editor, path);
        }
        Self::Terminal(Box::new(Prompt {
            editor: Some(editor),
            vocabulary,
            interrupted_empty,
            history,
        }))
    }

    /// Refresh what Tab completes (a terminal only).
    pub(super) fn set_vocabulary(&self, vocabulary: Vocabulary) {
        if let Self::Terminal(prompt) = self {
            *prompt.vocabulary.lock().unwrap_or_else(|p| p.into_inner()) = vocabulary;
        }
    }

    /// The next line.
    pub(super) async fn next_line(&mut self) -> std::io::Result<Read> {
        match self {
            Self::Piped(lines) => Ok(lines.next_line().await?.map_or(Read::End, Read::Line)),
            Self::Terminal(prompt) => prompt.next_line().await,
        }
    }
}

impl Prompt {
    async fn next_line(&mut self) -> std::io::Result<Read> {
        let Some(mut editor) = self.editor.take() else {
            return Ok(Read::End);
        };
        // The editor blocks on the terminal: off the async workers.
        let (editor, line) = tokio::task::spawn_blocking(move || {
            let line = editor.readline("mcp> ");
            (editor, line)
        })
        .await
        .map_err(std::io::Error::other)?;
        let mut editor = editor;
        let read = match line {
            Ok(line) => {
                if !line.trim().is_empty() {
                    let _ = editor.add_history_entry(line.as_str());
                    self.save_history(&mut editor);
                }
                Ok(Read::Line(line))
            }
            Err(rustyline::error::ReadlineError::Interrupted) => Ok(Read::Interrupted {
                empty: self.interrupted_empty.load(Ordering::Acquire),
            }),
            Err(rustyline::error::ReadlineError::Eof) => Ok(Read::End),
            Err(e) => Err(std::io::Error::other(e)),
        };
        self.editor = Some(editor);
        read
    }

    /// Keep the history after every line, so a shell that is killed keeps it too.
    fn save_history(&self, editor: &mut ShellEditor) {
        let Some(path) = &self.history else { return };
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        // Written 0600 by the editor: lines may hold arguments meant for you only.
        if let Err(e) = editor.save_history(path) {
            tracing::debug!(target: "mcp::cli", error = %e, "cannot save the shell history");
        }
    }
}

/// Ctrl-C: abandon the line, noting whether anything was typed.
struct CtrlC(Arc<AtomicBool>);

impl ConditionalEventHandler for CtrlC {
    fn handle(&self, _: &Event, _: RepeatCount, _: bool, ctx: &EventContext) -> Option<Cmd> {
        self.0.store(ctx.line().is_empty(), Ordering::Release);
        Some(Cmd::Interrupt)
    }
}

/// `shell_history` in the config directory (`$MCP_CONFIG_DIR`, else `$XDG_CONFIG_HOME/mcp`,
/// else `~/.config/mcp`).
fn history_file() -> Option<PathBuf> {
    crate::config_dir::config_dir().map(|dir| dir.join(HISTORY_FILE))
}

/// Load the history when it is a regular file of a sane size (checked with the bounded
/// reader first; the editor then parses its own format).
fn load_history(editor: &mut ShellEditor, path: &std::path::Path) {
    match mcp_types::local_file::read_bounded(path, MAX_HISTORY_BYTES) {
        Ok(_) => {
            if let Err(e) = editor.load_history(path) {
                tracing::debug!(target: "mcp::cli", error = %e, "cannot read the shell history");
            }
        }
        Err(e) => {
            tracing::debug!(target: "mcp::cli", error = %mcp_types::error_chain(&e), "shell history not read");
        }
    }
}
