//! The session state in memory: a client-role state against a server-role state
//! ([`Pair`]), or one state fed frames by hand, with a fake clock. Nothing here sleeps.

use std::time::Duration;

use mcp_types::{ErrorObject, RequestId};

use super::pair::Pair;
use super::{Event, FrameKind, Received, SessionOptions, SessionState, WireRules};
use crate::{Error, RequestOptions};

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

/// The peer's requests among `events`, as (id, method).
fn requests(events: &[Event<&'static str>]) -> Vec<(RequestId, String)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Request(r) => Some((r.id.clone(), r.method.clone())),
            _ => None,
        })
        .collect()
}

/// The responses among `events`, as (context, outcome text).
fn responses(events: Vec<Event<&'static str>>) -> Vec<(&'static str, Result<String, Error>)> {
    events
        .into_iter()
        .filter_map(|e| match e {
            Event::Response {
                context, result, ..
            } => Some((context, result.map(|r| r.get().to_owned()))),
            _ => None,
        })
        .collect()
}

fn empty() -> Result<Box<mcp_types::RawValue>, ErrorObject> {
    Ok(mcp_types::empty_object())
}

#[test]
fn a_request_is_answered_across_the_pair() {
    let mut pair = Pair::default_pair();
    let now = pair.now;
    let id = pair
        .client
        .request(
            now,
            pair.client.next_id(),
            "tools/list",
            None,
            RequestOptions::new(),
            "list",
        )
        .unwrap();
    pair.drive();
    let got = requests(&pair.server_events());
    assert_eq!(got, [(id.clone(), "tools/list".to_owned())]);
    let result = mcp_types::to_raw(&serde_json::json!({"tools": []})).unwrap();
    assert!(pair.server.respond(now, &id, &Ok(result)));
    pair.drive();
    let answered = responses(pair.client_events());
    assert_eq!(answered.len(), 1);
    assert_eq!(answered[0].0, "list");
    assert_eq!(answered[0].1.as_ref().unwrap(), r#"{"tools":[]}"#);
    assert_eq!(pair.client.pending_len(), 0);
    // The server's reply waits to be reported delivered; a transport would say so.
    assert_eq!(pair.server.sends_len(), 1);
    assert_eq!(pair.server_sent.len(), 1);
}

#[test]
fn a_request_id_slot_holds_the_id_before_the_frame_goes_out() {
    let mut pair = Pair::default_pair();
    let now = pair.now;
    let slot = crate::RequestIdSlot::new();
    let options = RequestOptions::new().with_request_id(slot.clone());
    let id = pair
        .client
        .request(
            now,
            pair.client.next_id(),
            "subscriptions/listen",
            None,
            options,
            "listen",
        )
        .unwrap();
    assert_eq!(slot.get(), Some(id.clone()), "queued, not yet sent");
    pair.drive();
    assert_eq!(
        requests(&pair.server_events()),
        [(id.clone(), "subscriptions/listen".to_owned())]
    );
    assert_eq!(slot.take(), Some(id));
    assert_eq!(slot.get(), None);
}

#[test]
fn a_timeout_fails_the_request_and_cancels_it_at_the_peer() {
    let mut pair = Pair::default_pair();
    let now = pair.now;
    let options = RequestOptions::new().with_timeout(ms(500));
    let id = pair
        .client
        .request(
            now,
            pair.client.next_id(),
            "tools/call",
            None,
            options,
            "call",
        )
        .unwrap();
    pair.drive();
    assert_eq!(requests(&pair.server_events()).len(), 1);
    assert_eq!(pair.client.poll_timeout(), Some(now + ms(500)));
    pair.advance(ms(499));
    assert!(pair.client_events().is_empty(), "not yet");
    pair.advance(ms(1));
    let failed = responses(pair.client_events());
    assert!(
        matches!(&failed[..], [("call", Err(Error::Timeout { method, after }))] if method == "tools/call" && *after == ms(500)),
        "{failed:?}"
    );
    // The server heard of it and will not answer.
    let events = pair.server_events();
    assert!(
        matches!(&events[..], [Event::PeerCancelled { id: cancelled, reason: Some(r) }, Event::Notification(n)]
            if *cancelled == id && r == "Request timed out after 500 ms" && n.method == "notifications/cancelled"),
        "{events:?}"
    );
    assert!(!pair.server.respond(pair.now, &id, &empty()));
    assert_eq!(pair.server.incoming_len(), 0);
    // A late answer would have been ignored anyway.
    pair.client.handle_frame(
        pair.now,
        Received::Text(format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{}}}}"#)),
    );
    assert!(pair.client.poll_event().is_none());
}

#[test]
fn initialize_is_never_cancelled() {
    let mut pair = Pair::default_pair();
    let now = pair.now;
    let options = RequestOptions::new().with_timeout(ms(100));
    let id = pair
        .client
        .request(
            now,
            pair.client.next_id(),
            "initialize",
            None,
            options.clone(),
            "init",
        )
        .unwrap();
    pair.advance(ms(100));
    assert!(matches!(
        &responses(pair.client_events())[..],
        [("init", Err(Error::Timeout { .. }))]
    ));
    assert!(
        !pair
            .client_sent
            .iter()
            .any(|(_, f)| f.contains("notifications/cancelled")),
        "{:?}",
        pair.client_sent
    );
    // Nor when the caller gives up on it.
    let id2 = pair
        .client
        .request(
            pair.now,
            pair.client.next_id(),
            "initialize",
            None,
            options,
            "init",
        )
        .unwrap();
    assert_eq!(
        pair.client.cancel(&id2, "gave up".into()),
        Some("init"),
        "{id}"
    );
    pair.drive();
    assert!(
        !pair
            .client_sent
            .iter()
            .any(|(_, f)| f.contains("notifications/cancelled"))
    );
}

#[test]
fn progress_restarts_the_timeout_up_to_the_hard_maximum() {
    let mut pair = Pair::default_pair();
    let now = pair.now;
    let options = RequestOptions::new()
        .with_timeout(ms(1000))
        .with_progress(|_| {})
        .with_reset_timeout_on_progress(ms(2500));
    let id = pair
        .client
        .request(
            now,
            pair.client.next_id(),
            "tools/call",
            None,
            options,
            "slow",
        )
        .unwrap();
    pair.drive();
    // The request carries its id as the progress token.
    assert!(
        pair.client_sent[0]
            .1
            .contains(&format!(r#""_meta":{{"progressToken":{id}}}"#)),
        "{:?}",
        pair.client_sent
    );
    let progress = |pair: &mut Pair, n: u32| {
        let params = format!(r#"{{"progressToken":{id},"progress":{n}}}"#);
        let raw = mcp_types::RawValue::from_string(params).unwrap();
        pair.server
            .notify(pair.now, "notifications/progress", Some(&raw))
            .unwrap();
        pair.drive();
    };
    for n in 1..=2 {
        pair.advance(ms(900));
        progress(&mut pair, n);
        let events = pair.client_events();
        assert!(
            matches!(&events[..], [Event::Progress { params, .. }] if params.progress == f64::from(n)),
            "{events:?}"
        );
    }
    // 1800 ms in: the step timeout would end at 2800, the hard maximum ends it at 2500.
    pair.advance(ms(699));
    assert!(pair.client_events().is_empty());
    pair.advance(ms(1));
    assert!(matches!(
        &responses(pair.client_events())[..],
        [("slow", Err(Error::Timeout { after, .. }))] if *after == ms(2500)
    ));
}

#[test]
fn without_progress_the_step_timeout_ends_the_request() {
    let mut pair = Pair::default_pair();
    let options = RequestOptions::new()
        .with_timeout(ms(1000))
        .with_progress(|_| {})
        .with_reset_timeout_on_progress(ms(60_000));
    pair.client
        .request(
            pair.now,
            pair.client.next_id(),
            "tools/call",
            None,
            options,
            "slow",
        )
        .unwrap();
    pair.drive();
    pair.advance(ms(1000));
    assert!(matches!(
        &responses(pair.client_events())[..],
        [("slow", Err(Error::Timeout { after, .. }))] if *after == ms(1000)
    ));
}

#[test]
fn the_caller_cancels_and_the_peer_stops() {
    let mut pair = Pair::default_pair();
    let now = pair.now;
    let id = pair
        .client
        .request(
            now,
            pair.client.next_id(),
            "tools/call",
            None,
            RequestOptions::new(),
            "call",
        )
        .unwrap();
    pair.drive();
    pair.server_events();
    assert_eq!(
        pair.client.cancel(&id, "the user gave up".into()),
        Some("call")
    );
    assert_eq!(pair.client.cancel(&id, "again".into()), None, "once");
    pair.drive();
    assert!(pair.client_events().is_empty(), "the caller knows already");
    assert!(matches!(
        &pair.server_events()[..],
        [Event::PeerCancelled { reason: Some(r), .. }, Event::Notification(_)] if r == "the user gave up"
    ));
    assert!(!pair.server.respond(now, &id, &empty()));
    assert_eq!(pair.client.pending_len(), 0);
}

#[test]
fn the_server_role_sends_its_own_requests_with_their_own_timeouts() {
    let mut pair = Pair::default_pair();
    let now = pair.now;
    // A server asks the client to sample, while the client's own call is in flight.
    let call = pair
        .client
        .request(
            now,
            pair.client.next_id(),
            "tools/call",
            None,
            RequestOptions::new(),
            "call",
        )
        .unwrap();
    let options = RequestOptions::new().with_timeout(ms(2000));
    let sampling = pair
        .server
        .request(
            now,
            pair.server.next_id(),
            "sampling/createMessage",
            None,
            options,
            "sample",
        )
        .unwrap();
    pair.drive();
    assert_eq!(
        requests(&pair.client_events()),
        [(sampling.clone(), "sampling/createMessage".to_owned())]
    );
    assert_eq!(
        requests(&pair.server_events()),
        [(call.clone(), "tools/call".to_owned())]
    );
    // The ids are each side's own: both start at 1.
    assert_eq!(call, sampling);
    assert_eq!(pair.client.incoming_len(), 1);
    // The person takes too long: the server's request times out and the client hears it.
    pair.advance(ms(2000));
    assert!(matches!(
        &responses(pair.server_events())[..],
        [("sample", Err(Error::Timeout { .. }))]
    ));
    let events = pair.client_events();
    assert!(
        matches!(&events[0], Event::PeerCancelled { id, .. } if *id == sampling),
        "{events:?}"
    );
    // The client's answer comes too late and is not sent.
    assert!(!pair.client.respond(pair.now, &sampling, &empty()));
    // The client's own call is untouched and still answered.
    assert!(pair.server.respond(pair.now, &call, &empty()));
    pair.drive();
    assert!(matches!(&responses(pair.client_events())[..], [("call", Ok(r))] if r == "{}"));
}

#[test]
fn close_fails_every_request_once_and_refuses_new_ones() {
    let mut pair = Pair::default_pair();
    let now = pair.now;
    for context in ["a", "b"] {
        pair.client
            .request(
                now,
                pair.client.next_id(),
                "tools/call",
                None,
                RequestOptions::new(),
                context,
            )
            .unwrap();
    }
    pair.drive();
    pair.client.close();
    pair.client.close();
    let events: Vec<_> = std::iter::from_fn(|| pair.client.poll_event()).collect();
    let closed = events.iter().filter(|e| matches!(e, Event::Closed)).count();
    assert_eq!(closed, 1, "{events:?}");
    let mut failed: Vec<_> = responses(events)
        .into_iter()
        .map(|(context, result)| (context, result.unwrap_err().to_string()))
        .collect();
    failed.sort();
    assert_eq!(
        failed,
        [
            ("a", "Transport closed".to_owned()),
            ("b", "Transport closed".to_owned())
        ]
    );
    let refused = pair
        .client
        .request(
            now,
            pair.client.next_id(),
            "ping",
            None,
            RequestOptions::new(),
            "late",
        )
        .unwrap_err();
    assert!(matches!(refused, (Error::TransportClosed { .. }, "late")));
    assert!(pair.client.notify(now, "n", None).is_err());
    // No cancellation goes out for requests the close ended.
    assert!(pair.client.poll_transmit().is_none());
    // The peer going away afterwards changes nothing.
    pair.client.handle_peer_closed(Some("gone".into()), None);
    assert!(pair.client.poll_event().is_none());
    assert!(pair.client.is_closed_locally());
}

#[test]
fn the_peer_going_away_fails_requests_with_the_reason() {
    let mut state: SessionState<u8> = SessionState::new(SessionOptions::new());
    let now = std::time::Instant::now();
    state
        .request(
            now,
            state.next_id(),
            "tools/call",
            None,
            RequestOptions::new(),
            1,
        )
        .unwrap();
    state.handle_peer_closed(Some("server exited with status 1".into()), None);
    let events: Vec<_> = std::iter::from_fn(|| state.poll_event()).collect();
    assert!(
        matches!(&events[..], [Event::Response { context: 1, result: Err(e), .. }, Event::Closed]
            if e.to_string() == "Transport closed: server exited with status 1"),
        "{events:?}"
    );
    // A notification to a peer that is gone is dropped, not an error.
    assert!(matches!(state.notify(now, "n", None), Ok(None)));
    // A transport with a better error than "Transport closed" gives it to every request.
    let mut state: SessionState<u8> = SessionState::new(SessionOptions::new());
    state
        .request(
            now,
            state.next_id(),
            "tools/call",
            None,
            RequestOptions::new(),
            2,
        )
        .unwrap();
    state.handle_peer_closed(None, Some(|| Error::InvalidArgument("typed".into())));
    assert!(matches!(
        state.poll_event(),
        Some(Event::Response { result: Err(Error::InvalidArgument(t)), .. }) if t == "typed"
    ));
}

#[test]
fn a_batch_is_routed_item_by_item() {
    let mut state: SessionState<&str> = SessionState::new(SessionOptions::new());
    let now = std::time::Instant::now();
    for context in ["a", "b"] {
        state
            .request(
                now,
                state.next_id(),
                "m",
                None,
                RequestOptions::new(),
                context,
            )
            .unwrap();
    }
    state.handle_frame(
        now,
        Received::Bytes(
            br#"[{"jsonrpc":"2.0","id":2,"result":{"b":1}},{"jsonrpc":"2.0","id":"s1","method":"ping"},{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"no"}},7]"#
                .to_vec(),
        ),
    );
    let events: Vec<_> = std::iter::from_fn(|| state.poll_event()).collect();
    assert!(
        matches!(&events[..], [
            Event::Response { context: "b", result: Ok(r), .. },
            Event::Request(ping),
            Event::Response { context: "a", result: Err(Error::Rpc(e)), .. },
            Event::Error(Error::Parse(_)),
        ] if r.get() == r#"{"b":1}"# && ping.method == "ping" && e.code == -1),
        "{events:?}"
    );
    // The ping, in the middle of the batch, is answered.
    while state.poll_transmit().is_some() {}
    assert!(state.respond(now, &RequestId::from("s1"), &empty()));
    let reply = state.poll_transmit().unwrap();
    assert_eq!(reply.kind, FrameKind::Response);
    assert_eq!(
        String::from_utf8(reply.bytes).unwrap(),
        r#"{"jsonrpc":"2.0","id":"s1","result":{}}"#
    );
}

#[test]
fn a_reply_that_does_not_decode_fails_the_request_it_names() {
    let mut state: SessionState<&str> = SessionState::new(SessionOptions::new());
    let now = std::time::Instant::now();
    state
        .request(now, state.next_id(), "m", None, RequestOptions::new(), "a")
        .unwrap();
    // Cut short, but its head names request 1.
    state.handle_frame(
        now,
        Received::Bytes(br#"{"jsonrpc":"2.0","id":1,"result":{"x":"#.to_vec()),
    );
    assert!(matches!(
        state.poll_event(),
        Some(Event::Response {
            context: "a",
            result: Err(Error::Parse(_)),
            ..
        })
    ));
    // Naming nobody: an error event, the session goes on.
    state.handle_frame(now, Received::Bytes(b"{oops".to_vec()));
    assert!(matches!(
        state.poll_event(),
        Some(Event::Error(Error::Parse(_)))
    ));
    state.handle_too_large(br#"{"jsonrpc":"2.0","id":9,"#, 10);
    assert!(matches!(
        state.poll_event(),
        Some(Event::Error(Error::MessageTooLarge { limit: 10 }))
    ));
    state
        .request(now, state.next_id(), "m", None, RequestOptions::new(), "b")
        .unwrap();
    state.handle_too_large(br#"{"jsonrpc":"2.0","id":2,"#, 10);
    assert!(matches!(
        state.poll_event(),
        Some(Event::Response {
            context: "b",
            result: Err(Error::MessageTooLarge { limit: 10 }),
            ..
        })
    ));
}

#[test]
fn a_notification_and_a_reply_are_reported_delivered_or_timed_out() {
    let options = SessionOptions::new().with_timeout(Some(ms(500)));
    let mut state: SessionState<()> = SessionState::new(options);
    let now = std::time::Instant::now();
    let sent = state
        .notify(now, "notifications/initialized", None)
        .unwrap()
        .unwrap();
    let frame = state.poll_transmit().unwrap();
    assert_eq!(frame.send, Some(sent));
    state.handle_sent(sent, Ok(()));
    assert!(
        matches!(state.poll_event(), Some(Event::Sent { send, result: Ok(()) }) if send == sent)
    );
    // One the transport never finishes is reported at the send timeout.
    let stuck = state.notify(now, "n", None).unwrap().unwrap();
    state.handle_frame(
        now,
        Received::Text(r#"{"jsonrpc":"2.0","id":"s","method":"ping"}"#.into()),
    );
    assert!(matches!(state.poll_event(), Some(Event::Request(_))));
    assert!(state.respond(now, &RequestId::from("s"), &empty()));
    assert_eq!(state.poll_timeout(), Some(now + ms(500)));
    state.handle_timeout(now + ms(500));
    let events: Vec<_> = std::iter::from_fn(|| state.poll_event()).collect();
    assert_eq!(events.len(), 2, "{events:?}");
    assert!(events.iter().any(|e| matches!(e,
        Event::Sent { send, result: Err(Error::Timeout { method, .. }) } if *send == stuck && method == "n")));
    assert!(events.iter().any(|e| matches!(e,
        Event::Error(Error::Timeout { method, .. }) if method == "reply to a server request")));
    // Reported once: a late acknowledgement changes nothing.
    state.handle_sent(stuck, Ok(()));
    assert!(state.poll_event().is_none());
    assert_eq!(state.poll_timeout(), None);
}

#[test]
fn revision_rules_travel_on_every_frame() {
    let mut state: SessionState<()> = SessionState::new(SessionOptions::new());
    let now = std::time::Instant::now();
    state.set_rules(
        WireRules::new()
            .with_protocol_version("2026-07-28")
            .stateless(true)
            .cancel_by_close(true)
            .peer_requests(false),
    );
    let options = RequestOptions::new().with_header(crate::McpHeader::Method("tools/call".into()));
    let id = state
        .request(now, state.next_id(), "tools/call", None, options, ())
        .unwrap();
    let request = state.poll_transmit().unwrap();
    assert_eq!(
        request.hints.protocol_version.as_deref(),
        Some("2026-07-28")
    );
    assert!(request.hints.stateless);
    assert_eq!(
        request.hints.headers,
        [crate::McpHeader::Method("tools/call".into())]
    );
    state.cancel(&id, "stop".into());
    let cancel = state.poll_transmit().unwrap();
    assert_eq!(cancel.kind, FrameKind::Cancellation { id, by_close: true });
    assert!(cancel.hints.headers.is_empty());
    // A server at this revision sends no requests: one that does gets no answer.
    state.handle_frame(
        now,
        Received::Text(r#"{"jsonrpc":"2.0","id":"s","method":"ping"}"#.into()),
    );
    assert!(state.poll_event().is_none());
    assert_eq!(state.incoming_len(), 0);
}

#[test]
fn requests_of_the_peer_past_the_cap_make_the_state_busy() {
    let options = SessionOptions::new().with_max_server_requests(2);
    let mut state: SessionState<()> = SessionState::new(options);
    let now = std::time::Instant::now();
    for n in 0..2 {
        assert!(!state.is_busy());
        state.handle_frame(
            now,
            Received::Text(format!(r#"{{"jsonrpc":"2.0","id":{n},"method":"ping"}}"#)),
        );
    }
    assert!(state.is_busy());
    state.decline(&RequestId::Number(0));
    assert!(!state.is_busy());
    // The peer cancelling one frees its place too, and says so once.
    state.handle_frame(
        now,
        Received::Text(
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#
                .into(),
        ),
    );
    assert_eq!(state.incoming_len(), 0);
}

#[test]
fn unasked_progress_and_unknown_responses_are_not_routed() {
    let mut state: SessionState<()> = SessionState::new(SessionOptions::new());
    let now = std::time::Instant::now();
    let id = state
        .request(now, state.next_id(), "m", None, RequestOptions::new(), ())
        .unwrap();
    state.handle_frame(
        now,
        Received::Text(format!(
            r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":{id},"progress":1}}}}"#
        )),
    );
    assert!(
        matches!(state.poll_event(), Some(Event::Notification(n)) if n.method == "notifications/progress")
    );
    state.handle_frame(
        now,
        Received::Text(r#"{"jsonrpc":"2.0","id":99,"result":{}}"#.into()),
    );
    assert!(state.poll_event().is_none());
    state.request_failed(&id, Error::NoResponse { id: id.clone() });
    assert!(matches!(
        state.poll_event(),
        Some(Event::Response {
            result: Err(Error::NoResponse { .. }),
            ..
        })
    ));
    assert_eq!(state.pending_len(), 0);
}

#[test]
fn a_server_names_the_request_each_of_its_frames_belongs_to() {
    let mut server: SessionState<&'static str> = SessionState::new(SessionOptions::server());
    let now = std::time::Instant::now();
    server.handle_frame(
        now,
        Received::Text(r#"{"jsonrpc":"2.0","id":"call-7","method":"tools/call"}"#.into()),
    );
    let call = RequestId::from("call-7");
    assert_eq!(requests(&[server.poll_event().unwrap()]).len(), 1);
    // While answering it: progress, then a request of its own, then the reply.
    let progress = mcp_types::to_raw(&serde_json::json!({"progressToken": 1, "progress": 1}));
    server
        .notify_related(
            now,
            "notifications/progress",
            Some(&progress.unwrap()),
            Some(call.clone()),
        )
        .unwrap();
    let options = RequestOptions::new().with_related_request(call.clone());
    let id = server.next_id();
    server
        .request(now, id, "sampling/createMessage", None, options, "sample")
        .unwrap();
    assert!(server.respond(now, &call, &empty()));
    // And a notification that belongs to no request.
    server
        .notify(now, "notifications/tools/list_changed", None)
        .unwrap();
    let related: Vec<_> = std::iter::from_fn(|| server.poll_transmit())
        .map(|t| t.hints.related_request)
        .collect();
    assert_eq!(
        related,
        [Some(call.clone()), Some(call.clone()), Some(call), None]
    );
}

/// A client request of `timeout`, registered as `context`, driven to the server.
fn call(pair: &mut Pair, options: &RequestOptions, context: &'static str) -> RequestId {
    let id = pair
        .client
        .request(
            pair.now,
            pair.client.next_id(),
            "tools/call",
            None,
            options.clone(),
            context,
        )
        .unwrap();
    pair.drive();
    pair.server_events();
    id
}

#[test]
fn a_held_request_does_not_time_out_and_its_clock_starts_again_when_released() {
    let mut pair = Pair::default_pair();
    call(
        &mut pair,
        &RequestOptions::new().with_timeout(ms(100)),
        "call",
    );
    pair.advance(ms(60));
    pair.client.hold(pair.now);
    assert!(pair.client.is_held());
    // A person answers for ten timeouts: the request stays pending, and the driver is
    // not woken again and again meanwhile.
    pair.advance(ms(1000));
    assert!(pair.client_events().is_empty(), "no timeout while held");
    assert_eq!(pair.client.poll_timeout(), None);
    assert_eq!(pair.client.pending_len(), 1);
    pair.client.release(pair.now);
    assert!(!pair.client.is_held());
    // Not the 40 ms it had left: a whole timeout again, as progress gives.
    assert_eq!(pair.client.poll_timeout(), Some(pair.now + ms(100)));
    pair.advance(ms(99));
    assert!(pair.client_events().is_empty());
    pair.advance(ms(1));
    assert!(matches!(
        &responses(pair.client_events())[..],
        [("call", Err(Error::Timeout { method, after }))] if method == "tools/call" && *after == ms(100)
    ));
    assert_eq!(pair.client.pending_len(), 0);
}

#[test]
fn holds_nest_and_the_clocks_run_again_after_the_last() {
    let mut pair = Pair::default_pair();
    call(&mut pair, &RequestOptions::new().with_timeout(ms(100)), "a");
    pair.client.hold(pair.now);
    pair.client.hold(pair.now);
    pair.client.release(pair.now);
    pair.advance(ms(500));
    assert!(pair.client_events().is_empty(), "one hold is still alive");
    // A request sent while held is held too.
    call(&mut pair, &RequestOptions::new().with_timeout(ms(50)), "b");
    pair.advance(ms(500));
    assert!(pair.client_events().is_empty());
    pair.client.release(pair.now);
    // One release too many changes nothing.
    pair.client.release(pair.now);
    assert!(!pair.client.is_held());
    pair.advance(ms(50));
    assert!(matches!(
        &responses(pair.client_events())[..],
        [("b", Err(Error::Timeout { .. }))]
    ));
    pair.advance(ms(50));
    assert!(matches!(
        &responses(pair.client_events())[..],
        [("a", Err(Error::Timeout { .. }))]
    ));
}

#[test]
fn an_answer_that_comes_while_held_is_delivered() {
    let mut pair = Pair::default_pair();
    let id = call(&mut pair, &RequestOptions::new().with_timeout(ms(100)), "a");
    pair.client.hold(pair.now);
    pair.advance(ms(1000));
    assert!(pair.server.respond(pair.now, &id, &empty()));
    pair.drive();
    assert!(matches!(
        &responses(pair.client_events())[..],
        [("a", Ok(_))]
    ));
    pair.client.release(pair.now);
    assert_eq!(pair.client.pending_len(), 0);
    assert_eq!(pair.client.poll_timeout(), None);
}

#[test]
fn a_hard_maximum_moves_later_by_the_time_held() {
    let mut pair = Pair::default_pair();
    let started = pair.now;
    // 100 ms without progress, 300 ms in all whatever the progress.
    let options = RequestOptions::new()
        .with_timeout(ms(100))
        .with_progress(|_| {})
        .with_reset_timeout_on_progress(ms(300));
    let id = call(&mut pair, &options, "slow");
    pair.advance(ms(50));
    pair.client.hold(pair.now);
    pair.advance(ms(1000));
    pair.client.release(pair.now);
    // Progress every 80 ms keeps it alive up to the hard maximum, 1000 ms (the hold) later.
    for n in 0..20 {
        let step = pair.now + ms(80);
        // Wake when the state asks (its alarm is a lower bound), as a driver would.
        while let Some(at) = pair.client.poll_timeout().filter(|at| *at <= step) {
            pair.advance(at - pair.now);
            let events = responses(pair.client_events());
            if !events.is_empty() {
                assert!(
                    matches!(&events[..], [("slow", Err(Error::Timeout { after, .. }))] if *after == ms(300)),
                    "{events:?}"
                );
                assert_eq!(pair.now - started, ms(1300));
                return;
            }
        }
        pair.advance(step - pair.now);
        let params = format!(r#"{{"progressToken":{id},"progress":{n}}}"#);
        let raw = mcp_types::RawValue::from_string(params).unwrap();
        pair.server
            .notify(pair.now, "notifications/progress", Some(&raw))
            .unwrap();
        pair.drive();
        pair.client_events();
    }
    panic!("the hard maximum never fired");
}
