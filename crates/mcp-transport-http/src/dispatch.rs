//! Handing incoming JSON-RPC frames (a JSON body or an SSE event) to the session.

use mcp_types::{MessageError, RequestId};

use crate::inner::Inner;
use crate::stream::StreamEnd;

impl Inner {
    /// Hand one frame to the session. On the reply stream of request `ours`, record in `end`
    /// whether it answered that request. The bytes move on to the caller waiting for the
    /// response they carry (no copy). A malformed frame is returned, not reported.
    pub(crate) fn dispatch(
        &self,
        bytes: Vec<u8>,
        ours: Option<&RequestId>,
        end: &mut StreamEnd,
    ) -> Option<MessageError> {
        match ours {
            Some(id) => {
                let received = self.inbox.receive_reply(bytes, id);
                end.answered |= received.answered;
                received.malformed
            }
            None => {
                self.inbox.receive(bytes);
                None
            }
        }
    }
}
