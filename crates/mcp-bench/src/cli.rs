//! The command line shared by `mcp-bench`, `mcp-bench-floor` (and, for its target part,
//! `mcp-bench-connect`). Hand-parsed: it is fixed, and other harnesses drive it.

/// Usage text.
pub const USAGE: &str = "usage: (--seq N | --conc N --inflight K) [--size BYTES] [--modern] \
                         (--http URL | --stdio-server CMD ARGS…)";

/// How calls are issued.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Each call awaited before the next.
    Seq,
    /// This many calls outstanding at all times (until the last ones).
    Conc {
        /// Calls in flight.
        inflight: usize,
    },
}

impl Mode {
    /// `"seq"` or `"conc"`, as printed in the report.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Seq => "seq",
            Self::Conc { .. } => "conc",
        }
    }

    /// Calls in flight: 1 for sequential.
    pub fn inflight(self) -> usize {
        match self {
            Self::Seq => 1,
            Self::Conc { inflight } => inflight,
        }
    }
}

/// Which server to talk to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A Streamable HTTP endpoint.
    Http(String),
    /// A child process spoken to over stdin/stdout.
    Stdio {
        /// Program.
        command: String,
        /// Its arguments.
        args: Vec<String>,
    },
}

impl Target {
    /// `"stdio"` or `"http"`, as printed in the report.
    pub fn transport(&self) -> &'static str {
        match self {
            Self::Http(_) => "http",
            Self::Stdio { .. } => "stdio",
        }
    }
}

/// A parsed command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BenchArgs {
    /// Sequential or concurrent.
    pub mode: Mode,
    /// Timed calls.
    pub n: usize,
    /// Reply size in bytes, when asked for.
    pub size: Option<usize>,
    /// The server.
    pub target: Target,
    /// Speak revision 2026-07-28 (`--modern`): the floor sends `server/discover` and
    /// `_meta` instead of `initialize`; our client negotiates on its own, and must arrive
    /// at 2026-07-28.
    pub modern: bool,
}

/// A command line that does not follow [`USAGE`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ArgsError {
    /// An option needs a value.
    #[error("{0} needs a value")]
    MissingValue(&'static str),
    /// A value is not a positive whole number.
    #[error("{option} needs a positive whole number, not {value:?}")]
    NotANumber {
        /// The option.
        option: &'static str,
        /// What was given.
        value: String,
    },
    /// An option that is not in [`USAGE`].
    #[error("unknown argument {0:?}")]
    Unknown(String),
    /// Neither or both of `--seq` and `--conc`, or `--conc` without `--inflight`.
    #[error("give either --seq N or --conc N --inflight K")]
    Mode,
    /// Neither or both of `--http` and `--stdio-server`.
    #[error("give either --http URL or --stdio-server CMD ARGS…")]
    Target,
}

impl BenchArgs {
    /// Parse the arguments (without the program name).
    pub fn parse<I, S>(args: I) -> Result<Self, ArgsError>
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let mut args = args.into_iter().map(Into::into);
        let (mut seq, mut conc, mut inflight, mut size) = (None, None, None, None);
        let mut target = None;
        let mut modern = false;
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--modern" => modern = true,
                "--seq" => seq = Some(number("--seq", args.next())?),
                "--conc" => conc = Some(number("--conc", args.next())?),
                "--inflight" => inflight = Some(number("--inflight", args.next())?),
                "--size" => size = Some(number("--size", args.next())?),
                "--http" => {
                    let url = args.next().ok_or(ArgsError::MissingValue("--http"))?;
                    if target.replace(Target::Http(url)).is_some() {
                        return Err(ArgsError::Target);
                    }
                }
                "--stdio-server" => {
                    // Always last: the rest of the argv is the server's command line.
                    let command = args
                        .next()
                        .ok_or(ArgsError::MissingValue("--stdio-server"))?;
                    let rest = args.by_ref().collect();
                    if target
                        .replace(Target::Stdio {
                            command,
                            args: rest,
                        })
                        .is_some()
                    {
                        return Err(ArgsError::Target);
                    }
                }
                _ => return Err(ArgsError::Unknown(arg)),
            }
        }
        let (mode, n) = match (seq, conc, inflight) {
            (Some(n), None, None) => (Mode::Seq, n),
            (None, Some(n), Some(inflight)) => (Mode::Conc { inflight }, n),
            _ => return Err(ArgsError::Mode),
        };
        Ok(Self {
            mode,
            n,
            size,
            target: target.ok_or(ArgsError::Target)?,
            modern,
        })
    }

    /// Untimed calls before the timed ones: min(100, N/10).
    pub fn warmup(&self) -> usize {
        (self.n / 10).min(100)
    }
}

fn number(option: &'static str, value: Option<String>) -> Result<usize, ArgsError> {
    let value = value.ok_or(ArgsError::MissingValue(option))?;
    match value.parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(ArgsError::NotANumber { option, value }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_both_shapes() {
        let a = BenchArgs::parse(["--seq", "5000", "--stdio-server", "srv", "--x", "1"]).unwrap();
        assert_eq!(a.mode, Mode::Seq);
        assert_eq!(a.n, 5000);
        assert_eq!(a.warmup(), 100);
        assert!(!a.modern);
        let m = BenchArgs::parse(["--seq", "1", "--modern", "--http", "u"]).unwrap();
        assert!(m.modern);
        assert_eq!(
            a.target,
            Target::Stdio {
                command: "srv".into(),
                args: vec!["--x".into(), "1".into()]
            }
        );
        let b = BenchArgs::parse([
            "--conc",
            "20000",
            "--inflight",
            "64",
            "--size",
            "10",
            "--http",
            "http://h/mcp",
        ])
        .unwrap();
        assert_eq!(b.mode, Mode::Conc { inflight: 64 });
        assert_eq!(b.size, Some(10));
        assert_eq!(b.target.transport(), "http");
    }

    #[test]
    fn rejects_wrong_shapes() {
        assert_eq!(
            BenchArgs::parse([
                "--seq",
                "1",
                "--conc",
                "2",
                "--inflight",
                "1",
                "--http",
                "u"
            ]),
            Err(ArgsError::Mode)
        );
        assert_eq!(
            BenchArgs::parse(["--conc", "2", "--http", "u"]),
            Err(ArgsError::Mode)
        );
        assert_eq!(BenchArgs::parse(["--seq", "1"]), Err(ArgsError::Target));
        assert!(matches!(
            BenchArgs::parse(["--seq", "0", "--http", "u"]),
            Err(ArgsError::NotANumber { .. })
        ));
        assert!(matches!(
            BenchArgs::parse(["--bogus"]),
            Err(ArgsError::Unknown(_))
        ));
    }
}
