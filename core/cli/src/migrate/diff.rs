//! The unified diff of a file's edits (`--write` shows it, `--dry-run` shows only it): the lines
//! each edit touches, before and after, with three lines of context, as `diff -u` and `patch`
//! read it.

use std::fmt::Write;
use std::ops::Range;

use super::write::{Edit, apply};

/// Lines of context around each change.
const CONTEXT: usize = 3;

/// One group of touching edits, by lines: the old lines it replaces, the new lines it writes.
struct Change {
    /// 0-based, end exclusive.
    old: Range<usize>,
    new: Vec<String>,
}

/// `--- NAME`, `+++ NAME` and the hunks that turn `source` into it with `edits` applied.
/// Empty when there are no edits.
pub(crate) fn unified(name: &str, source: &str, edits: &[Edit]) -> String {
    if edits.is_empty() {
        return String::new();
    }
    let starts: Vec<usize> = std::iter::once(0)
        .chain(source.match_indices('\n').map(|(i, _)| i + 1))
        .filter(|&s| s < source.len() || s == 0)
        .collect();
    let line_of = |offset: usize| starts.partition_point(|&s| s <= offset).saturating_sub(1);
    let old_lines: Vec<&str> = source.split_inclusive('\n').collect();
    // Each edit's lines: from the line it starts on to the line its last byte is on.
    let mut changes: Vec<(Range<usize>, Vec<&Edit>)> = Vec::new();
    for edit in edits {
        let first = line_of(edit.range.start);
        let last = if edit.range.is_empty() {
            first
        } else {
            line_of(edit.range.end - 1)
        };
        match changes.last_mut() {
            Some((lines, group)) if first <= lines.end => {
                lines.end = lines.end.max(last + 1);
                group.push(edit);
            }
            _ => changes.push((first..last + 1, vec![edit])),
        }
    }
    let changes: Vec<Change> = changes
        .into_iter()
        .map(|(lines, group)| {
            let start = starts.get(lines.start).copied().unwrap_or(source.len());
            let end = starts.get(lines.end).copied().unwrap_or(source.len());
            let local: Vec<Edit> = group
                .iter()
                .map(|e| Edit {
                    range: e.range.start - start..e.range.end - start,
                    text: e.text.clone(),
                })
                .collect();
            let new = apply(&source[start..end], &local);
            Change {
                old: lines.start..lines.end.min(old_lines.len()),
                new: new.split_inclusive('\n').map(str::to_owned).collect(),
            }
        })
        .collect();
    let mut out = format!("--- {name}\n+++ {name}\n");
    let mut shift: isize = 0;
    let mut i = 0;
    while i < changes.len() {
        // The changes of one hunk: each within twice the context of the previous.
        let mut j = i + 1;
        while j < changes.len() && changes[j].old.start <= changes[j - 1].old.end + 2 * CONTEXT {
            j += 1;
        }
        let from = changes[i].old.start.saturating_sub(CONTEXT);
        let to = (changes[j - 1].old.end + CONTEXT).min(old_lines.len());
        let mut body = String::new();
        let (mut old_count, mut new_count) = (0, 0);
        let mut at = from;
        for change in &changes[i..j] {
            for line in &old_lines[at..change.old.start] {
                push(&mut body, ' ', line);
                old_count += 1;
                new_count += 1;
            }
            for line in &old_lines[change.old.clone()] {
                push(&mut body, '-', line);
                old_count += 1;
            }
            for line in &change.new {
                push(&mut body, '+', line);
                new_count += 1;
            }
            at = change.old.end;
        }
        for line in &old_lines[at..to] {
            push(&mut body, ' ', line);
            old_count += 1;
            new_count += 1;
        }
        let new_from = (from as isize + shift).max(0) as usize;
        let _ = writeln!(
            out,
            "@@ -{} +{} @@",
            span(from, old_count),
            span(new_from, new_count)
        );
        out.push_str(&body);
        shift += new_count as isize - old_count as isize;
        i = j;
    }
    out
}

/// `start,count` as a hunk header writes it (1-based; the line before for an empty range).
fn span(start: usize, count: usize) -> String {
    if count == 0 {
        format!("{start},0")
    } else {
        format!("{},{count}", start + 1)
    }
}

fn push(body: &mut String, sign: char, line: &str) {
    body.push(sign);
    body.push_str(line);
    if !line.ends_with('\n') {
        body.push_str("\n\\ No newline at end of file\n");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hunks_show_the_edits_with_context() {
        let source = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n";
        let at = |s: &str| source.find(s).expect("in source");
        let edits = [
            Edit {
                range: at("2\n")..at("3\n"),
                text: String::new(),
            },
            Edit {
                range: at("14")..at("14") + 2,
                text: "fourteen\nand more".to_owned(),
            },
        ];
        assert_eq!(
            unified("f.rs", source, &edits),
            "--- f.rs\n+++ f.rs\n\
             @@ -1,5 +1,4 @@\n 1\n-2\n 3\n 4\n 5\n\
             @@ -11,6 +10,7 @@\n 11\n 12\n 13\n-14\n+fourteen\n+and more\n 15\n 16\n"
        );
        assert_eq!(unified("f.rs", source, &[]), "");
    }
}
