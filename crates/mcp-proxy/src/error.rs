//! The proxy's own failures (what a host sees of an upstream failure is a JSON-RPC error,
//! made in `reply.rs`).

/// Why a proxy could not be made or could not serve.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ProxyError {
    /// A proxy needs at least one upstream server.
    #[error("no upstream server to forward to")]
    NoServers,
    /// The HTTP face could not listen, or its listener failed.
    #[error("I/O error")]
    Io(#[from] std::io::Error),
    /// The HTTP face was told to listen somewhere other than a loopback address without
    /// being allowed to.
    #[error(
        "{addr} is not a loopback address: a proxy reachable from other machines hands them \
         your servers and their credentials; allow it explicitly"
    )]
    NotLoopback {
        /// The address asked for.
        addr: std::net::SocketAddr,
    },
}
