//! Whether a tool call goes through a task: the tool's `execution.taskSupport`, the server's
//! `tasks` capability and the caller's choice.

use mcp_types::ServerCapabilities;

/// Whether the server declared `tasks.requests.tools.call` (it accepts task-augmented
/// `tools/call`).
pub(crate) fn server_runs_tool_tasks(caps: &ServerCapabilities) -> bool {
    caps.tasks
        .as_ref()
        .and_then(|t| t.pointer("/requests/tools/call"))
        .is_some()
}

/// Whether a plain `call_tool` of a tool with `task_support` should run it as a task:
/// always for `"required"` (the server would refuse anything else), for `"optional"` when
/// the caller asked and the server accepts tool tasks.
pub(crate) fn route(task_support: Option<&str>, prefer_optional: bool, server_ok: bool) -> bool {
    match task_support {
        Some("required") => true,
        Some("optional") => prefer_optional && server_ok,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn required_always_optional_when_asked_and_accepted() {
        assert!(route(Some("required"), false, false));
        assert!(route(Some("optional"), true, true));
        assert!(!route(Some("optional"), true, false));
        assert!(!route(Some("optional"), false, true));
        assert!(!route(Some("forbidden"), true, true));
        assert!(!route(None, true, true));
    }

    #[test]
    fn tool_tasks_need_requests_tools_call() {
        let mut caps = ServerCapabilities::new();
        assert!(!server_runs_tool_tasks(&caps));
        caps.tasks = Some(json!({"list": {}}));
        assert!(!server_runs_tool_tasks(&caps));
        caps.tasks = Some(json!({"requests": {"tools": {"call": {}}}}));
        assert!(server_runs_tool_tasks(&caps));
    }
}
