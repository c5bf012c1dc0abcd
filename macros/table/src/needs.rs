//! What a program needs of the driver, computed one way for the runtime's `requirements()` and
//! the command's `check` summary: the minimum driver and the optional upgrades.

use std::cmp::Reverse;

/// The requests of a program sorted into what it needs and what it may use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Needs<R> {
    /// The required requests, newest first (then by key), each once.
    pub required: Vec<R>,
    /// The driver version the required requests need together: the newest of theirs. `None`
    /// when none is required.
    pub minimum: Option<u32>,
    /// How many of [`Needs::required`], from the first, set [`Needs::minimum`].
    pub set_by: usize,
    /// The optional requests, newest first, each once, without those also required (declared
    /// both ways, an entry is required): used when the driver serves them, they set no minimum.
    pub optional: Vec<R>,
}

/// Sorts `required` and `optional` requests by `version` (the typedef version, which is the
/// driver a request needs) and `key` (what else tells two requests apart).
pub fn needs<R, K: Ord>(
    required: impl IntoIterator<Item = R>,
    optional: impl IntoIterator<Item = R>,
    version: impl Fn(&R) -> u32,
    key: impl Fn(&R) -> K,
) -> Needs<R> {
    let order = |requests: &mut Vec<R>| {
        requests.sort_by_key(|r| (Reverse(version(r)), key(r)));
        requests.dedup_by(|a, b| version(a) == version(b) && key(a) == key(b));
    };
    let (mut required, mut optional): (Vec<R>, Vec<R>) = (
        required.into_iter().collect(),
        optional.into_iter().collect(),
    );
    order(&mut required);
    order(&mut optional);
    optional.retain(|o| {
        !required
            .iter()
            .any(|r| version(r) == version(o) && key(r) == key(o))
    });
    let minimum = required.first().map(&version);
    let set_by = required
        .iter()
        .take_while(|r| Some(version(r)) == minimum)
        .count();
    Needs {
        required,
        minimum,
        set_by,
        optional,
    }
}

#[cfg(test)]
mod tests {
    use super::needs;

    #[test]
    fn the_newest_required_sets_the_minimum_and_required_ones_are_no_upgrades() {
        let n = needs(
            [("b", 3020), ("a", 12050), ("c", 12050), ("a", 12050)],
            [("a", 12050), ("d", 13000), ("d", 13000)],
            |r| r.1,
            |r| r.0,
        );
        assert_eq!(n.required, [("a", 12050), ("c", 12050), ("b", 3020)]);
        assert_eq!((n.minimum, n.set_by), (Some(12050), 2));
        assert_eq!(n.optional, [("d", 13000)]);
        let none = needs([], [("d", 13000)], |r: &(&str, u32)| r.1, |r| r.0);
        assert_eq!(
            (none.minimum, none.set_by, none.optional.len()),
            (None, 0, 1)
        );
    }
}
