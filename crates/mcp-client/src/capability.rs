//! Which server capability each method needs (`basic/lifecycle`: use only what was negotiated).

use crate::Error;
use mcp_types::{ServerCapabilities, methods};

/// Check that the server declared what `method` needs; `ping` and unknown methods pass.
pub(crate) fn require(caps: &ServerCapabilities, method: &str) -> Result<(), Error> {
    let (declared, capability) = match method {
        methods::TOOLS_LIST | methods::TOOLS_CALL => (caps.tools.is_some(), "tools"),
        methods::RESOURCES_LIST | methods::RESOURCES_TEMPLATES_LIST | methods::RESOURCES_READ => {
            (caps.resources.is_some(), "resources")
        }
        methods::RESOURCES_SUBSCRIBE | methods::RESOURCES_UNSUBSCRIBE => (
            caps.resources
                .as_ref()
                .is_some_and(|r| r.subscribe == Some(true)),
            "resources.subscribe",
        ),
        methods::PROMPTS_LIST | methods::PROMPTS_GET => (caps.prompts.is_some(), "prompts"),
        methods::COMPLETION_COMPLETE => (caps.completions.is_some(), "completions"),
        methods::LOGGING_SET_LEVEL => (caps.logging.is_some(), "logging"),
        methods::TASKS_GET | methods::TASKS_RESULT => (caps.tasks.is_some(), "tasks"),
        methods::TASKS_LIST => (task_capability(caps, "list"), "tasks.list"),
        methods::TASKS_CANCEL => (task_capability(caps, "cancel"), "tasks.cancel"),
        _ => return Ok(()),
    };
    if declared {
        Ok(())
    } else {
        Err(Error::CapabilityNotSupported {
            method: method.to_owned(),
            capability,
        })
    }
}

/// Whether the server's `tasks` capability holds `member` (`list`, `cancel`).
fn task_capability(caps: &ServerCapabilities, member: &str) -> bool {
    caps.tasks.as_ref().and_then(|t| t.get(member)).is_some()
}
