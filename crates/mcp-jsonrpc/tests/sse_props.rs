//! Properties of the SSE parser: how a body is split into chunks never changes what comes out,
//! what comes out matches a literal reading of the WHATWG rules, and no input makes it panic.

use std::time::Duration;

use mcp_jsonrpc::{SseEvent, SseParser};
use proptest::prelude::*;
use proptest::sample::Index;

/// Everything observable after feeding a whole stream and calling `finish`.
#[derive(Debug, PartialEq)]
struct Outcome {
    events: Vec<SseEvent>,
    /// How many `push` calls returned `Err`. One call reports at most one error however many
    /// events it rejected, so only "any at all" is comparable across chunkings.
    errors: usize,
    last_event_id: Option<String>,
    retry: Option<Duration>,
}

/// Assert that two chunkings of one stream had the same outcome.
fn assert_same(chunked: &Outcome, whole: &Outcome) -> Result<(), TestCaseError> {
    prop_assert_eq!(&chunked.events, &whole.events);
    prop_assert_eq!(&chunked.last_event_id, &whole.last_event_id);
    prop_assert_eq!(chunked.retry, whole.retry);
    prop_assert_eq!(chunked.errors > 0, whole.errors > 0);
    Ok(())
}

/// Feed `bytes` cut at `cuts` (positions, any order, duplicates allowed).
fn parse_chunked(max: usize, bytes: &[u8], cuts: &[usize]) -> Outcome {
    let mut cuts: Vec<usize> = cuts.to_vec();
    cuts.push(0);
    cuts.push(bytes.len());
    cuts.sort_unstable();
    let mut parser = SseParser::new(max);
    let mut events = Vec::new();
    let mut errors = 0;
    for pair in cuts.windows(2) {
        if parser
            .push(&bytes[pair[0]..pair[1]], |e| events.push(e))
            .is_err()
        {
            errors += 1;
        }
    }
    parser.finish();
    Outcome {
        events,
        errors,
        last_event_id: parser.last_event_id().map(str::to_owned),
        retry: parser.retry(),
    }
}

fn parse_whole(max: usize, bytes: &[u8]) -> Outcome {
    parse_chunked(max, bytes, &[])
}

fn parse_byte_by_byte(max: usize, bytes: &[u8]) -> Outcome {
    let cuts: Vec<usize> = (1..bytes.len()).collect();
    parse_chunked(max, bytes, &cuts)
}

/// What the spec text says, step by step, written independently of the parser: decode the
/// whole stream, drop one leading BOM, split into lines, interpret each, discard the tail.
/// Events come out as `(event, data, id)`: `SseEvent` cannot be built outside its crate.
fn reference(bytes: &[u8]) -> Reference {
    let text = String::from_utf8_lossy(bytes);
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(&text);

    let mut lines = Vec::new();
    let mut current = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                lines.push(std::mem::take(&mut current));
            }
            '\n' => lines.push(std::mem::take(&mut current)),
            c => current.push(c),
        }
    }
    // `current` is an unterminated line: the spec discards it with the incomplete event.

    let (mut data, mut event_type, mut id_buffer) = (String::new(), String::new(), String::new());
    let mut last_event_id = String::new();
    let mut retry = None;
    let mut events = Vec::new();
    for line in lines {
        if line.is_empty() {
            last_event_id = id_buffer.clone();
            if data.is_empty() {
                event_type.clear();
                continue;
            }
            if data.ends_with('\n') {
                data.pop();
            }
            let kind = if event_type.is_empty() {
                "message".to_owned()
            } else {
                event_type.clone()
            };
            let id = (!last_event_id.is_empty()).then(|| last_event_id.clone());
            events.push((kind, std::mem::take(&mut data), id));
            event_type.clear();
            continue;
        }
        if line.starts_with(':') {
            continue;
        }
        let (name, value) = match line.split_once(':') {
            Some((name, value)) => (name, value.strip_prefix(' ').unwrap_or(value)),
            None => (line.as_str(), ""),
        };
        match name {
            "event" => event_type = value.to_owned(),
            "data" => {
                data.push_str(value);
                data.push('\n');
            }
            "id" if !value.contains('\0') => id_buffer = value.to_owned(),
            "retry" if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) => {
                // Only overflow can fail here; the parser saturates.
                retry = Some(value.parse().unwrap_or(u64::MAX));
            }
            _ => {}
        }
    }
    Reference {
        events,
        last_event_id: (!last_event_id.is_empty()).then_some(last_event_id),
        retry: retry.map(Duration::from_millis),
    }
}

/// What [`reference`] says a stream holds.
struct Reference {
    events: Vec<(String, String, Option<String>)>,
    last_event_id: Option<String>,
    retry: Option<Duration>,
}

/// Assert that the parser's outcome is what the reference reading of `bytes` gives.
fn assert_matches_reference(parsed: &Outcome, bytes: &[u8]) -> Result<(), TestCaseError> {
    let expected = reference(bytes);
    let events: Vec<_> = parsed
        .events
        .iter()
        .map(|e| (e.event.clone(), e.data.clone(), e.id.clone()))
        .collect();
    prop_assert_eq!(events, expected.events);
    prop_assert_eq!(&parsed.last_event_id, &expected.last_event_id);
    prop_assert_eq!(parsed.retry, expected.retry);
    Ok(())
}

/// One line of a generated stream, without its line end.
fn line() -> impl Strategy<Value = String> {
    // Multi-byte characters (2, 3 and 4 bytes, and U+FEFF), NUL, colons and spaces, so chunk
    // cuts land inside UTF-8 sequences and near field separators.
    let value = "[a-z0-9 :{}\"é€😀\u{FEFF}\u{0}]{0,10}";
    let name = prop_oneof![
        4 => Just("data"),
        1 => Just("event"),
        1 => Just("id"),
        1 => Just("retry"),
        1 => Just("Data"),
        1 => Just("unknown"),
    ];
    let separator = prop_oneof![Just(":"), Just(": "), Just(":  "), Just("")];
    prop_oneof![
        6 => (name, separator, value).prop_map(|(n, s, v)| {
            if s.is_empty() { n.to_owned() } else { format!("{n}{s}{v}") }
        }),
        1 => "[0-9]{1,6}".prop_map(|digits| format!("retry: {digits}")),
        1 => value.prop_map(|v| format!(":{v}")),
        3 => Just(String::new()),
    ]
}

fn line_end() -> impl Strategy<Value = &'static str> {
    prop_oneof![Just("\n"), Just("\r"), Just("\r\n")]
}

/// How a generated stream begins: nothing, a BOM, or a BOM's first bytes.
const STREAM_STARTS: &[&[u8]] = &[b"", b"\xEF\xBB\xBF", b"\xEF", b"\xEF\xBB"];

/// A stream of generated lines with mixed line ends, maybe a BOM (or the first bytes of one,
/// which are content, not a BOM), maybe an unterminated tail.
fn stream() -> impl Strategy<Value = Vec<u8>> {
    (
        prop::sample::select(STREAM_STARTS),
        prop::collection::vec((line(), line_end()), 0..40),
        prop::option::of(line()),
    )
        .prop_map(|(start, lines, tail)| {
            let mut out = start.to_vec();
            for (line, end) in lines {
                out.extend_from_slice(line.as_bytes());
                out.extend_from_slice(end.as_bytes());
            }
            out.extend_from_slice(tail.unwrap_or_default().as_bytes());
            out
        })
}

/// A stream together with up to 12 cut positions inside it.
fn chunked(bytes: impl Strategy<Value = Vec<u8>>) -> impl Strategy<Value = (Vec<u8>, Vec<usize>)> {
    (bytes, prop::collection::vec(any::<Index>(), 0..12)).prop_map(|(bytes, cuts)| {
        let cuts = cuts.iter().map(|i| i.index(bytes.len() + 1)).collect();
        (bytes, cuts)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn chunking_never_changes_the_outcome((bytes, cuts) in chunked(stream())) {
        let whole = parse_whole(usize::MAX, &bytes);
        prop_assert_eq!(&parse_chunked(usize::MAX, &bytes, &cuts), &whole);
        prop_assert_eq!(&parse_byte_by_byte(usize::MAX, &bytes), &whole);
        prop_assert_eq!(whole.errors, 0);
    }

    #[test]
    fn outcome_matches_the_spec_reference((bytes, cuts) in chunked(stream())) {
        assert_matches_reference(&parse_chunked(usize::MAX, &bytes, &cuts), &bytes)?;
    }

    /// With a small limit some events and lines are rejected; which ones, and what is
    /// dispatched after resynchronising, still does not depend on the chunking.
    #[test]
    fn chunking_never_changes_which_events_are_rejected(
        (bytes, cuts) in chunked(stream()),
        max in 0usize..48,
    ) {
        let whole = parse_whole(max, &bytes);
        let chunked = parse_chunked(max, &bytes, &cuts);
        // Fed a byte at a time, each rejection gets its own `push`, so this is the true count.
        let bytewise = parse_byte_by_byte(max, &bytes);
        assert_same(&chunked, &whole)?;
        assert_same(&bytewise, &whole)?;
        prop_assert!(whole.errors <= chunked.errors && chunked.errors <= bytewise.errors);
        // Only a partial BOM is invalid UTF-8 here, and it never reaches `data`.
        for event in &whole.events {
            prop_assert!(event.data.len() <= max);
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic_and_chunking_still_does_not_matter(
        (bytes, cuts) in chunked(prop::collection::vec(
            prop_oneof![
                // Bias towards the bytes the parser cares about.
                3 => prop::sample::select(&b"\r\n: datidevnry\0\xEF\xBB\xBF\xFF\xE2\x82"[..]),
                1 => any::<u8>(),
            ],
            0..300,
        )),
        max in prop_oneof![Just(usize::MAX), 0usize..64],
    ) {
        let whole = parse_whole(max, &bytes);
        assert_same(&parse_chunked(max, &bytes, &cuts), &whole)?;
        if max == usize::MAX {
            assert_matches_reference(&whole, &bytes)?;
        }
    }
}
