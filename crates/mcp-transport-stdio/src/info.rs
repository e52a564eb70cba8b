//! What the stdio transport can tell about its server while the session's driver owns the
//! transport: its pid and the last lines of its stderr.

use std::sync::Arc;

use mcp_jsonrpc::TransportInfo;

use crate::process_group::ProcessGroup;
use crate::stderr::SharedTail;

#[derive(Debug)]
pub(crate) struct ProcessInfo {
    pub(crate) group: Arc<ProcessGroup>,
    pub(crate) stderr_tail: Option<SharedTail>,
}

impl TransportInfo for ProcessInfo {
    fn stderr_tail(&self) -> Option<String> {
        self.stderr_tail.as_ref().and_then(SharedTail::joined)
    }

    fn pid(&self) -> Option<u32> {
        self.group.pid()
    }
}
