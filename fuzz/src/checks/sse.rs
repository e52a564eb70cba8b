//! `mcp_jsonrpc::SseParser`: the same stream fed whole or in pieces gives the same events,
//! the same last event id and retry; no event's text exceeds three times the limit.

use mcp_jsonrpc::{SseEvent, SseParser};

/// A small limit, so that the fuzzer reaches the oversized-event paths.
const LIMIT: usize = 64;

struct Outcome {
    events: Vec<SseEvent>,
    failed: bool,
    last_event_id: Option<String>,
    retry: Option<std::time::Duration>,
}

fn run<'a>(chunks: impl IntoIterator<Item = &'a [u8]>) -> Outcome {
    let mut parser = SseParser::new(LIMIT);
    let mut events = Vec::new();
    let mut failed = false;
    for chunk in chunks {
        failed |= parser.push(chunk, |e| events.push(e)).is_err();
    }
    parser.finish();
    Outcome {
        events,
        failed,
        last_event_id: parser.last_event_id().map(str::to_owned),
        retry: parser.retry(),
    }
}

/// Run the checks on one input.
pub fn check(data: &[u8]) {
    let (_, pieces) = super::chunks(data);
    let whole: Vec<u8> = pieces.concat();
    let a = run([whole.as_slice()]);
    let b = run(pieces.iter().copied());
    let bytes = run(whole.chunks(1));
    for (name, other) in [("pieces", &b), ("bytes", &bytes)] {
        assert_eq!(a.events, other.events, "events differ when fed in {name}");
        assert_eq!(a.failed, other.failed, "errors differ when fed in {name}");
        assert_eq!(a.last_event_id, other.last_event_id, "ids differ ({name})");
        assert_eq!(a.retry, other.retry, "retry differs ({name})");
    }
    // The limit counts bytes received; invalid UTF-8 is decoded lossily, each bad byte to
    // U+FFFD (3 bytes), so an event's text may be up to three times the limit (found by
    // this target: the bound holds, with that factor).
    for event in &a.events {
        assert!(
            event.data.len() <= 3 * LIMIT,
            "event of {} bytes",
            event.data.len()
        );
    }
}
