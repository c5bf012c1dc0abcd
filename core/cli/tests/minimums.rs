//! `migrate`'s lockfile advice names every package cuda-entry's build needs at least at some
//! version (`MINIMUMS` in src/migrate/manifest.rs): the list is held here against `cargo
//! metadata` of the workspace. For each package that a build of `cuda-entry` (or of the testing
//! kit, `cuda-entry-sim`) pulls in, the minimum is the largest lower bound any crate of that
//! build asks for it.

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

use serde_json::Value;

/// The lower bound of a requirement (`^1.0.40`, `>=0.3, <0.4`, `=0.1.0`, `1`), padded to three
/// numbers; `None` for `*`.
fn lower_bound(req: &str) -> Option<(u64, u64, u64)> {
    let first = req.split(',').next()?.trim();
    let version = first.trim_start_matches(['^', '~', '=', '>', ' ']);
    let mut parts = version
        .split(['.', '-', '+'])
        .map(|p| p.parse::<u64>().ok());
    let major = parts.next()??;
    let minor = parts.next().flatten().unwrap_or(0);
    let patch = parts.next().flatten().unwrap_or(0);
    Some((major, minor, patch))
}

/// The source text `MINIMUMS` must have.
fn expected() -> String {
    // The host's packages only: what the workspace's own build already fetched.
    let rustc = Command::new("rustc")
        .arg("-vV")
        .output()
        .expect("rustc runs");
    let host = String::from_utf8_lossy(&rustc.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_owned))
        .expect("rustc names its host");
    let out = Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--format-version",
            "1",
            "--filter-platform",
            &host,
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let packages = doc["packages"].as_array().expect("packages");
    let by_id: BTreeMap<&str, &Value> = packages
        .iter()
        .map(|p| (p["id"].as_str().expect("an id"), p))
        .collect();
    let nodes: BTreeMap<&str, &Value> = doc["resolve"]["nodes"]
        .as_array()
        .expect("nodes")
        .iter()
        .map(|n| (n["id"].as_str().expect("an id"), n))
        .collect();
    // The packages a build of the published crates users depend on pulls in: normal and build
    // dependencies, on any platform, but not the model checker (`cfg(loom)`).
    let mut closure: BTreeSet<&str> = BTreeSet::new();
    let mut todo: Vec<&str> = packages
        .iter()
        .filter(|p| ["cuda-entry", "cuda-entry-sim"].contains(&p["name"].as_str().unwrap_or("")))
        .map(|p| p["id"].as_str().expect("an id"))
        .collect();
    while let Some(id) = todo.pop() {
        if !closure.insert(id) {
            continue;
        }
        for dep in nodes[id]["deps"].as_array().expect("deps") {
            let used = dep["dep_kinds"].as_array().expect("kinds").iter().any(|k| {
                k["kind"] != "dev" && !k["target"].as_str().unwrap_or("").contains("loom")
            });
            if used {
                todo.push(dep["pkg"].as_str().expect("a package"));
            }
        }
    }
    let names: BTreeSet<&str> = closure
        .iter()
        .map(|id| by_id[id]["name"].as_str().expect("a name"))
        .collect();
    let mut minimums: BTreeMap<&str, (u64, u64, u64)> = BTreeMap::new();
    for id in &closure {
        for dep in by_id[id]["dependencies"].as_array().expect("dependencies") {
            let name = dep["name"].as_str().expect("a name");
            let kind = dep["kind"].as_str();
            let target = dep["target"].as_str().unwrap_or("");
            if kind == Some("dev") || target.contains("loom") || !names.contains(name) {
                continue;
            }
            // The workspace's own crates are pinned together: a lockfile cannot hold them older.
            if dep["source"].is_null() || name.starts_with("cuda-entry") {
                continue;
            }
            if let Some(bound) = lower_bound(dep["req"].as_str().expect("a requirement")) {
                let slot = minimums.entry(name).or_insert(bound);
                *slot = (*slot).max(bound);
            }
        }
    }
    let mut text = String::from("pub(crate) const MINIMUMS: &[(&str, &str)] = &[\n");
    for (name, (a, b, c)) in minimums {
        text.push_str(&format!("    (\"{name}\", \"{a}.{b}.{c}\"),\n"));
    }
    text.push_str("];\n");
    text
}

#[test]
fn the_minimums_are_those_of_the_dependency_tree() {
    let source = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/migrate/manifest.rs"),
    )
    .expect("read");
    let expected = expected();
    assert!(
        source.contains(&expected),
        "src/migrate/manifest.rs's MINIMUMS is stale; write:\n{expected}"
    );
}

#[test]
fn lower_bounds_read_every_requirement() {
    assert_eq!(lower_bound("^1.0.40"), Some((1, 0, 40)));
    assert_eq!(lower_bound(">=0.3, <0.4"), Some((0, 3, 0)));
    assert_eq!(lower_bound("=0.1.0"), Some((0, 1, 0)));
    assert_eq!(lower_bound("1"), Some((1, 0, 0)));
    assert_eq!(lower_bound("~2.1"), Some((2, 1, 0)));
    assert_eq!(lower_bound("*"), None);
}
