//! Members written in front of a JSON object's own, as text: how the hot paths add a
//! `_meta` (a request's revision keys, a progress token) or a result's `resultType` without
//! parsing the object into a tree of values and writing it again. Each caller decides first
//! that the splice is safe (the keys it writes cannot already be there); this only writes.

/// Write `{`, the members `write` adds (without a trailing comma), and the members and
/// closing brace of the object whose text after its opening brace is `rest`, with a comma
/// between the two only when the object has members of its own.
///
/// ```
/// let mut out = String::new();
/// mcp_types::splice::members_in_front(&mut out, r#""a":1}"#, |o| o.push_str(r#""b":2"#));
/// assert_eq!(out, r#"{"b":2,"a":1}"#);
/// let mut empty = String::new();
/// mcp_types::splice::members_in_front(&mut empty, " }", |o| o.push_str(r#""b":2"#));
/// assert_eq!(empty, r#"{"b":2 }"#);
/// ```
pub fn members_in_front(out: &mut String, rest: &str, write: impl FnOnce(&mut String)) {
    out.push('{');
    write(out);
    if !rest.trim_start().starts_with('}') {
        out.push(',');
    }
    out.push_str(rest);
}
