//! Handing what a stream or body carried to the session: each frame parsed once here (to
//! learn whether it answered the request whose reply stream it came on) and not again.

use mcp_jsonrpc::{Inbound, ParsedFrame, Received};
use mcp_types::RequestId;

use crate::inner::Inner;
use crate::stream::StreamEnd;

impl Inner {
    /// Hand one frame to the session. On the reply stream of request `ours`, record in `end`
    /// whether it answered that request. The bytes move on to the caller waiting for the
    /// response they carry (no copy). `false` when the transport is gone.
    pub(crate) async fn dispatch(
        &self,
        frame: ParsedFrame,
        ours: Option<&RequestId>,
        end: &mut StreamEnd,
    ) -> bool {
        if let Some(id) = ours {
            end.answered |= frame.answers(id);
        }
        self.deliver(Inbound::Frame(Received::Parsed(frame))).await
    }
}
