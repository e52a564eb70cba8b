//! "Did you mean …?": the known name closest to a misspelt one (servers, tools, prompts,
//! shell commands), by Jaro-Winkler similarity, as clap suggests subcommands.

/// Below this similarity a name is not offered: `echo` for `ehco` (0.93) is, `add` for
/// `echo` (0.0) is not.
const THRESHOLD: f64 = 0.8;

/// The candidate most like `word`, if one is close enough (exact matches are not
/// suggestions: the caller looked for those already).
pub(crate) fn closest<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let lowered = word.to_lowercase();
    candidates
        .into_iter()
        .filter(|c| *c != word)
        .map(|c| (strsim::jaro_winkler(&lowered, &c.to_lowercase()), c))
        .filter(|(score, _)| *score >= THRESHOLD)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

/// `"; did you mean \"NAME\"?"` for the closest candidate, else nothing.
pub(crate) fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> String {
    closest(word, candidates)
        .map(|c| format!("; did you mean \"{c}\"?"))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_closest_name_is_offered_and_distant_ones_are_not() {
        let tools = ["echo", "add", "elicit", "elicit_url", "structured"];
        assert_eq!(closest("ehco", tools), Some("echo"));
        assert_eq!(closest("Echo", tools), Some("echo"));
        assert_eq!(closest("elicit_ur", tools), Some("elicit_url"));
        assert_eq!(closest("structure", tools), Some("structured"));
        assert_eq!(closest("frobnicate", tools), None);
        assert_eq!(
            closest("echo", tools),
            None,
            "an exact match is no suggestion"
        );
        assert_eq!(closest("x", std::iter::empty()), None);
        assert_eq!(did_you_mean("ad", ["add"]), "; did you mean \"add\"?");
        assert_eq!(did_you_mean("zzz", ["add"]), "");
    }
}
