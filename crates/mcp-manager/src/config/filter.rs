//! Which of a server's tools are offered: `enabledTools` and `disabledTools` glob lists.

use globset::{Glob, GlobSet, GlobSetBuilder};

/// Tool allow/deny lists of one server, as globs (`*`, `?`, `[abc]`, `{a,b}`).
///
/// A tool is allowed when no `disabledTools` pattern matches it (deny wins) and, if
/// `enabledTools` is given, one of its patterns matches. An empty `enabledTools` list allows
/// nothing; an absent one allows everything.
///
/// ```
/// use mcp_manager::config::ToolFilter;
/// let filter = ToolFilter::new(Some(vec!["git_*".into()]), vec!["git_push*".into()]).unwrap();
/// assert!(filter.allows("git_status"));
/// assert!(!filter.allows("git_push_force"));
/// assert!(!filter.allows("rm"));
/// ```
#[derive(Clone, Default)]
pub struct ToolFilter {
    enabled: Option<Patterns>,
    disabled: Option<Patterns>,
}

/// One compiled glob list, with the patterns as written.
#[derive(Clone)]
pub(super) struct Patterns {
    source: Vec<String>,
    set: GlobSet,
}

impl Patterns {
    pub(super) fn new(source: Vec<String>) -> Result<Self, globset::Error> {
        let mut builder = GlobSetBuilder::new();
        for pattern in &source {
            builder.add(Glob::new(pattern)?);
        }
        Ok(Self {
            set: builder.build()?,
            source,
        })
    }
}

impl ToolFilter {
    /// A filter from `enabledTools` (absent = all) and `disabledTools`.
    pub fn new(
        enabled: Option<Vec<String>>,
        disabled: Vec<String>,
    ) -> Result<Self, globset::Error> {
        Ok(Self {
            enabled: enabled.map(Patterns::new).transpose()?,
            disabled: if disabled.is_empty() {
                None
            } else {
                Some(Patterns::new(disabled)?)
            },
        })
    }

    /// A filter from lists already compiled (the config loader compiles each list on its own
    /// to say which one holds a bad pattern).
    pub(super) fn from_patterns(enabled: Option<Patterns>, disabled: Option<Patterns>) -> Self {
        Self {
            enabled,
            disabled: disabled.filter(|d| !d.source.is_empty()),
        }
    }

    /// A filter that allows every tool.
    pub fn allow_all() -> Self {
        Self::default()
    }

    /// Whether the tool named `tool` is offered.
    pub fn allows(&self, tool: &str) -> bool {
        if self.disabled.as_ref().is_some_and(|d| d.set.is_match(tool)) {
            return false;
        }
        self.enabled.as_ref().is_none_or(|e| e.set.is_match(tool))
    }

    /// Whether this filter allows every tool.
    pub fn is_allow_all(&self) -> bool {
        self.enabled.is_none() && self.disabled.is_none()
    }

    /// The `enabledTools` patterns, when given.
    pub fn enabled_patterns(&self) -> Option<&[String]> {
        self.enabled.as_ref().map(|p| p.source.as_slice())
    }

    /// The `disabledTools` patterns.
    pub fn disabled_patterns(&self) -> &[String] {
        self.disabled.as_ref().map_or(&[], |p| p.source.as_slice())
    }
}

impl std::fmt::Debug for ToolFilter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolFilter")
            .field("enabled", &self.enabled_patterns())
            .field("disabled", &self.disabled_patterns())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filter(enabled: Option<&[&str]>, disabled: &[&str]) -> ToolFilter {
        let owned = |p: &[&str]| p.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        ToolFilter::new(enabled.map(owned), owned(disabled)).unwrap()
    }

    #[test]
    fn no_lists_allow_everything() {
        let f = ToolFilter::allow_all();
        assert!(f.allows("anything") && f.is_allow_all());
    }

    #[test]
    fn enabled_list_restricts_and_deny_wins() {
        let f = filter(Some(&["read_*", "echo"]), &["read_secret*"]);
        assert!(f.allows("echo"));
        assert!(f.allows("read_file"));
        assert!(!f.allows("read_secrets"));
        assert!(!f.allows("write_file"));
        assert!(!f.allows("echo2"), "globs match whole names");
    }

    #[test]
    fn empty_enabled_list_allows_nothing_and_deny_alone_allows_the_rest() {
        assert!(!filter(Some(&[]), &[]).allows("echo"));
        let f = filter(None, &["delete_*", "drop"]);
        assert!(!f.allows("delete_all") && !f.allows("drop") && f.allows("select"));
    }

    #[test]
    fn alternatives_and_classes_work_and_bad_globs_are_errors() {
        let f = filter(Some(&["{get,list}_*", "tool[0-9]"]), &[]);
        assert!(f.allows("get_x") && f.allows("list_y") && f.allows("tool7"));
        assert!(!f.allows("put_x") && !f.allows("toolx"));
        assert!(ToolFilter::new(Some(vec!["[unclosed".into()]), vec![]).is_err());
    }
}
