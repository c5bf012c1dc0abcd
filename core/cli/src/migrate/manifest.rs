//! A crate's manifest and lockfile, for `migrate CRATE_DIR`: the `cuda-entry` dependency added
//! to `Cargo.toml` with a kept TOML editor (toml_edit: the user's formatting and comments stay),
//! the build script's path, and the `cargo update -p` a lockfile older than cuda-entry's
//! minimums needs.

use std::path::{Path, PathBuf};

use toml_edit::{DocumentMut, Item, Table, Value};

/// The versions cuda-entry's build needs at least, for every package of its dependency tree a
/// user's lockfile may already hold older: the largest minimum any crate of the tree asks for.
/// `tests/minimums.rs` holds this list against `cargo metadata` of the workspace, and
/// `tests/minimal-versions.sh` (the repository's) checks that the requirements behind it suffice.
pub(crate) const MINIMUMS: &[(&str, &str)] = &[
    ("cfg-if", "1.0.0"),
    ("libloading", "0.9.0"),
    ("linkme", "0.3.37"),
    ("linkme-impl", "0.3.37"),
    ("proc-macro2", "1.0.91"),
    ("quote", "1.0.35"),
    ("syn", "3.0.10"),
    ("unicode-ident", "1.0.0"),
];

/// The dependency to add: `--dependency`, read as TOML.
#[derive(Clone, Debug)]
pub(crate) struct Dependency(Value);

/// The keys of a dependency Cargo reads.
const KEYS: &[&str] = &[
    "version",
    "path",
    "git",
    "branch",
    "tag",
    "rev",
    "registry",
    "package",
    "features",
    "default-features",
    "optional",
];

impl Dependency {
    /// What `migrate` adds without `--dependency`: this command's version, as a requirement
    /// (`0.1` for 0.1.x).
    pub(crate) fn default_version() -> Dependency {
        let version = env!("CARGO_PKG_VERSION");
        let mut parts = version.split('.');
        let requirement = match (parts.next(), parts.next()) {
            (Some("0"), Some(minor)) => format!("0.{minor}"),
            (Some(major), _) => major.to_owned(),
            _ => version.to_owned(),
        };
        Dependency(Value::from(requirement))
    }

    /// Reads `--dependency`: a version requirement (`0.1`, `=0.1.0`), or the keys of an inline
    /// table (`path = "../cuda-entry/core"`, `git = "https://...", rev = "..."`), with or without
    /// its braces.
    pub(crate) fn parse(spec: &str) -> Result<Dependency, String> {
        let spec = spec.trim();
        let refused = |why: String| {
            format!(
                "--dependency {spec:?}: {why}; write a version (`0.1`) or the keys of a Cargo \
                 dependency (`path = \"../cuda-entry/core\"`, `git = \"URL\", rev = \"...\"`)"
            )
        };
        if !spec.contains('=') || spec.starts_with('=') {
            if spec.is_empty() || spec.contains(['"', '{', '}', ',']) {
                return Err(refused("not a version requirement".to_owned()));
            }
            return Ok(Dependency(Value::from(spec.to_owned())));
        }
        let body = spec
            .strip_prefix('{')
            .and_then(|s| s.strip_suffix('}'))
            .unwrap_or(spec);
        let doc: DocumentMut = format!("dependency = {{ {body} }}")
            .parse()
            .map_err(|e: toml_edit::TomlError| refused(e.message().to_owned()))?;
        let Some(Item::Value(Value::InlineTable(table))) = doc.get("dependency") else {
            return Err(refused("not an inline table".to_owned()));
        };
        if let Some((key, _)) = table.iter().find(|(key, _)| !KEYS.contains(key)) {
            return Err(refused(format!(
                "`{key}` is not a key of a dependency (those are {})",
                KEYS.join(", ")
            )));
        }
        if !["version", "path", "git"]
            .iter()
            .any(|k| table.contains_key(k))
        {
            return Err(refused("it names no version, path or git".to_owned()));
        }
        let mut table = table.clone();
        table.fmt();
        Ok(Dependency(Value::InlineTable(table)))
    }

    /// Its `path`, if it has one.
    pub(crate) fn path(&self) -> Option<PathBuf> {
        match &self.0 {
            Value::InlineTable(t) => t.get("path").and_then(Value::as_str).map(PathBuf::from),
            _ => None,
        }
    }

    /// As a `Cargo.toml` line writes it: `cuda-entry = "0.1"`.
    pub(crate) fn line(&self) -> String {
        format!("cuda-entry = {}", self.0.to_string().trim())
    }
}

/// A manifest read: its text and TOML document.
#[derive(Debug)]
pub(crate) struct Manifest {
    text: String,
    doc: DocumentMut,
}

/// The member crates of the workspace whose root is `dir`, as Cargo reads them (`cargo metadata
/// --no-deps`: globs, `exclude`, the root package), each as its folder; `None` when `dir`'s
/// manifest has no `[workspace]`.
pub(crate) fn workspace_members(dir: &Path) -> Result<Option<Vec<PathBuf>>, String> {
    let manifest = dir.join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest).map_err(|e| e.to_string())?;
    let doc: DocumentMut = text
        .parse()
        .map_err(|e: toml_edit::TomlError| format!("not a valid manifest: {}", e.message()))?;
    let Some(workspace) = doc.get("workspace") else {
        return Ok(None);
    };
    // A package that is its own workspace (`[workspace]` without members): no other crate.
    if doc.contains_key("package") && workspace.get("members").is_none() {
        return Ok(Some(Vec::new()));
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = std::process::Command::new(&cargo)
        .args([
            "metadata",
            "--no-deps",
            "--format-version",
            "1",
            "--offline",
        ])
        .arg("--manifest-path")
        .arg(&manifest)
        .output()
        .map_err(|e| {
            format!("a workspace: `cargo metadata` lists its members, and could not run: {e}")
        })?;
    if !output.status.success() {
        let said = String::from_utf8_lossy(&output.stderr);
        return Err(format!(
            "a workspace whose members `cargo metadata` could not list: {}",
            said.trim()
        ));
    }
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout)
        .map_err(|e| format!("`cargo metadata` printed no JSON: {e}"))?;
    let members: Vec<&str> = metadata["workspace_members"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(serde_json::Value::as_str)
        .collect();
    let root = metadata["workspace_root"].as_str().map(PathBuf::from);
    let mut dirs: Vec<PathBuf> = metadata["packages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|p| p["id"].as_str().is_some_and(|id| members.contains(&id)))
        .filter_map(|p| {
            Some(
                Path::new(p["manifest_path"].as_str()?)
                    .parent()?
                    .to_path_buf(),
            )
        })
        .filter(|d| Some(d) != root.as_ref())
        .collect();
    dirs.sort();
    Ok(Some(dirs))
}

impl Manifest {
    /// Reads `Cargo.toml`'s text; a virtual manifest (a workspace root without a package) is
    /// refused unless it is a workspace's root, whose members are migrated as crates.
    pub(crate) fn read(text: String) -> Result<Manifest, String> {
        let doc: DocumentMut = text
            .parse()
            .map_err(|e: toml_edit::TomlError| format!("not a valid manifest: {}", e.message()))?;
        if !doc.contains_key("package") && !doc.contains_key("workspace") {
            return Err("no [package]: not a crate".to_owned());
        }
        Ok(Manifest { text, doc })
    }

    /// Whether this is a virtual manifest: a workspace's root without a package of its own,
    /// which gets no dependency.
    pub(crate) fn is_virtual(&self) -> bool {
        !self.doc.contains_key("package")
    }

    /// The build script: `package.build` (a path, or `false` for none), else `build.rs`.
    pub(crate) fn build_script(&self) -> Option<PathBuf> {
        if self.is_virtual() {
            return None;
        }
        match self.doc.get("package").and_then(|p| p.get("build")) {
            Some(item) => item.as_str().map(PathBuf::from),
            None => Some(PathBuf::from("build.rs")),
        }
    }

    /// The name other crates reach its library by: `[lib] name`, else the package's name with
    /// `_` for `-`; `None` for a virtual manifest.
    pub(crate) fn lib_name(&self) -> Option<String> {
        let lib = self.doc.get("lib").and_then(|l| l.get("name"));
        let package = self.doc.get("package").and_then(|p| p.get("name"));
        lib.or(package)
            .and_then(Item::as_str)
            .map(|name| name.replace('-', "_"))
    }

    /// Whether the crate is of edition 2015 (no `edition`, nor one inherited from its
    /// workspace), where the declarations' `::cuda_entry` paths need `extern crate cuda_entry;`.
    pub(crate) fn edition_2015(&self) -> bool {
        if self.is_virtual() {
            return false;
        }
        match self.doc.get("package").and_then(|p| p.get("edition")) {
            None => true,
            Some(edition) => edition.as_str() == Some("2015"),
        }
    }

    /// Whether the crate already depends on cuda-entry (under its name or renamed), in any
    /// dependency table.
    fn depends(&self) -> bool {
        let in_table = |table: &Item| {
            table.as_table_like().is_some_and(|t| {
                t.iter().any(|(name, spec)| {
                    name == "cuda-entry"
                        || spec.get("package").and_then(Item::as_str) == Some("cuda-entry")
                })
            })
        };
        let tables = ["dependencies", "dev-dependencies", "build-dependencies"];
        let direct = tables.iter().filter_map(|t| self.doc.get(t)).any(in_table);
        let targets = self.doc.get("target").and_then(Item::as_table_like);
        direct
            || targets.is_some_and(|targets| {
                targets
                    .iter()
                    .any(|(_, t)| tables.iter().filter_map(|d| t.get(d)).any(in_table))
            })
    }

    /// The manifest with `dependency` added to `[dependencies]`, and what changed; `None` when
    /// the crate already depends on cuda-entry.
    pub(crate) fn with_dependency(&self, dependency: &Dependency) -> Option<(String, String)> {
        if self.depends() || self.is_virtual() {
            return None;
        }
        let mut doc = self.doc.clone();
        if !doc.contains_key("dependencies") {
            doc.insert("dependencies", Item::Table(Table::new()));
        }
        let table = doc.get_mut("dependencies")?.as_table_like_mut()?;
        table.insert("cuda-entry", Item::Value(dependency.0.clone()));
        let text = doc.to_string();
        (text != self.text).then(|| {
            let change = format!("adds `{}` to [dependencies]", dependency.line());
            (text, change)
        })
    }
}

/// A version's numbers, `1.0.9` -> `(1, 0, 9)`; pre-release and build text ignored.
fn numbers(version: &str) -> Option<(u64, u64, u64)> {
    let version = version.split(['-', '+']).next()?;
    let mut parts = version.split('.').map(str::parse::<u64>);
    match (parts.next(), parts.next(), parts.next()) {
        (Some(Ok(a)), Some(Ok(b)), Some(Ok(c))) => Some((a, b, c)),
        _ => None,
    }
}

/// Whether two versions are semver-compatible (the range one caret requirement allows).
fn compatible(a: (u64, u64, u64), b: (u64, u64, u64)) -> bool {
    match (a.0, b.0) {
        (0, 0) if a.1 == 0 && b.1 == 0 => a.2 == b.2,
        (0, 0) => a.1 == b.1,
        (x, y) => x == y,
    }
}

/// The packages of a lockfile that cuda-entry needs newer, with the `cargo update` that fixes
/// it: `cargo update -p quote -p proc-macro2` (`-p quote@1.0.9` where the lockfile holds several
/// versions). Empty when nothing is older than [`MINIMUMS`]. An unreadable lockfile says so.
pub(crate) fn lock_advice(lock: &str) -> Result<Vec<(String, String, String)>, String> {
    let doc: DocumentMut = lock
        .parse()
        .map_err(|e: toml_edit::TomlError| format!("not a valid lockfile: {}", e.message()))?;
    let packages: Vec<(String, String)> = doc
        .get("package")
        .and_then(Item::as_array_of_tables)
        .map(|packages| {
            packages
                .iter()
                .filter_map(|p| {
                    let name = p.get("name")?.as_str()?;
                    let version = p.get("version")?.as_str()?;
                    Some((name.to_owned(), version.to_owned()))
                })
                .collect()
        })
        .unwrap_or_default();
    let mut stale = Vec::new();
    for (name, minimum) in MINIMUMS {
        let Some(min) = numbers(minimum) else {
            continue;
        };
        let held: Vec<&(String, String)> = packages.iter().filter(|(n, _)| n == name).collect();
        let in_range: Vec<(u64, u64, u64)> = held
            .iter()
            .filter_map(|(_, v)| numbers(v))
            .filter(|v| compatible(*v, min))
            .collect();
        if in_range.is_empty() || in_range.iter().any(|v| *v >= min) {
            continue;
        }
        let old = held
            .iter()
            .find(|(_, v)| numbers(v).is_some_and(|v| compatible(v, min) && v < min))
            .map(|(_, v)| v.clone())
            .unwrap_or_default();
        let spec = if held.len() > 1 {
            format!("{name}@{old}")
        } else {
            (*name).to_owned()
        };
        stale.push((spec, old, (*minimum).to_owned()));
    }
    Ok(stale)
}

/// The same document with `items` as an inline table, for the tests.
#[cfg(test)]
fn inline(items: &[(&str, &str)]) -> Value {
    let mut table = toml_edit::InlineTable::new();
    for (key, value) in items {
        table.insert(*key, Value::from(*value));
    }
    table.fmt();
    Value::InlineTable(table)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dependencies_read_as_cargo_writes_them() {
        assert_eq!(
            Dependency::parse("0.1").map(|d| d.line()),
            Ok("cuda-entry = \"0.1\"".to_owned())
        );
        assert_eq!(
            Dependency::parse("=0.1.0").map(|d| d.line()),
            Ok("cuda-entry = \"=0.1.0\"".to_owned())
        );
        let path = Dependency::parse("path = \"../cuda-entry/core\"").expect("a path");
        assert_eq!(
            path.0.to_string().trim(),
            inline(&[("path", "../cuda-entry/core")]).to_string().trim()
        );
        assert_eq!(path.path(), Some(PathBuf::from("../cuda-entry/core")));
        let git = Dependency::parse("{ git = \"https://example.org/x\", rev = \"abc\" }");
        assert_eq!(
            git.map(|d| d.line()),
            Ok("cuda-entry = { git = \"https://example.org/x\", rev = \"abc\" }".to_owned())
        );
        for bad in [
            "",
            "pth = \"x\"",
            "features = []",
            "path = ",
            "\"0.1\"",
            "a,b",
        ] {
            let e = Dependency::parse(bad).expect_err(bad);
            assert!(e.starts_with("--dependency"), "{bad}: {e}");
        }
        assert_eq!(Dependency::default_version().line(), "cuda-entry = \"0.1\"");
    }

    #[test]
    fn the_dependency_is_added_keeping_the_rest() {
        let text = "# the crate\n[package]\nname = \"x\" # named\nversion = \"0.1.0\"\n\n\
                    [dependencies]\nlibc = \"0.2\"   # aligned\n\n[features]\na = []\n";
        let manifest = Manifest::read(text.to_owned()).expect("a manifest");
        let (new, change) = manifest
            .with_dependency(&Dependency::default_version())
            .expect("added");
        assert_eq!(
            new,
            text.replace(
                "\"0.2\"   # aligned\n",
                "\"0.2\"   # aligned\ncuda-entry = \"0.1\"\n"
            )
        );
        assert_eq!(change, "adds `cuda-entry = \"0.1\"` to [dependencies]");
        let again = Manifest::read(new).expect("a manifest");
        assert_eq!(again.with_dependency(&Dependency::default_version()), None);
        // Renamed, in a target's table: depended on all the same.
        let renamed = "[package]\nname = \"x\"\n[target.'cfg(unix)'.dependencies]\n\
                       ce = { package = \"cuda-entry\", version = \"0.1\" }\n";
        let renamed = Manifest::read(renamed.to_owned()).expect("a manifest");
        assert_eq!(
            renamed.with_dependency(&Dependency::default_version()),
            None
        );
        // No [dependencies] yet: one is made.
        let bare = Manifest::read("[package]\nname = \"x\"\n".to_owned()).expect("a manifest");
        let (new, _) = bare
            .with_dependency(&Dependency::default_version())
            .expect("added");
        assert_eq!(
            new,
            "[package]\nname = \"x\"\n\n[dependencies]\ncuda-entry = \"0.1\"\n"
        );
        // A virtual manifest is read (its members are migrated), and gets no dependency.
        let root = Manifest::read("[workspace]\n".to_owned()).expect("a workspace's root");
        assert!(root.is_virtual() && root.build_script().is_none());
        assert_eq!(root.with_dependency(&Dependency::default_version()), None);
        assert!(Manifest::read("[dependencies]\n".to_owned()).is_err());
        assert!(Manifest::read("[package\n".to_owned()).is_err());
    }

    #[test]
    fn the_library_is_named_as_rustc_names_it() {
        let read = |text: &str| Manifest::read(text.to_owned()).expect("a manifest");
        let package = read("[package]\nname = \"gpu-sys\"\n");
        assert_eq!(package.lib_name().as_deref(), Some("gpu_sys"));
        let renamed = read("[package]\nname = \"gpu-sys\"\n[lib]\nname = \"raw\"\n");
        assert_eq!(renamed.lib_name().as_deref(), Some("raw"));
        assert_eq!(read("[workspace]\n").lib_name(), None);
    }

    #[test]
    fn edition_2015_is_told() {
        let edition = |text: &str| Manifest::read(text.to_owned()).expect("ok").edition_2015();
        assert!(edition("[package]\nname = \"x\"\n"));
        assert!(edition("[package]\nedition = \"2015\"\n"));
        assert!(!edition("[package]\nedition = \"2018\"\n"));
        assert!(!edition("[package]\nedition.workspace = true\n"));
    }

    #[test]
    fn build_scripts_are_found() {
        let script = |text: &str| Manifest::read(text.to_owned()).expect("ok").build_script();
        assert_eq!(script("[package]\n"), Some(PathBuf::from("build.rs")));
        assert_eq!(
            script("[package]\nbuild = \"tools/b.rs\"\n"),
            Some(PathBuf::from("tools/b.rs"))
        );
        assert_eq!(script("[package]\nbuild = false\n"), None);
    }

    #[test]
    fn an_old_lockfile_is_told_what_to_update() {
        let lock = "version = 3\n\n[[package]]\nname = \"quote\"\nversion = \"1.0.9\"\n\n\
                    [[package]]\nname = \"proc-macro2\"\nversion = \"1.0.28\"\n\n\
                    [[package]]\nname = \"proc-macro2\"\nversion = \"0.4.30\"\n\n\
                    [[package]]\nname = \"syn\"\nversion = \"1.0.109\"\n\n\
                    [[package]]\nname = \"libloading\"\nversion = \"0.9.3\"\n";
        let stale = lock_advice(lock).expect("read");
        let specs: Vec<&str> = stale.iter().map(|(spec, _, _)| spec.as_str()).collect();
        // syn 1 is another major version: a new syn 3 is added beside it, nothing to update.
        assert_eq!(specs, ["proc-macro2@1.0.28", "quote"]);
        assert_eq!(stale[1], ("quote".into(), "1.0.9".into(), "1.0.35".into()));
        assert_eq!(lock_advice("version = 3\n"), Ok(Vec::new()));
        assert!(lock_advice("[[package]\n").is_err());
        assert!(compatible((0, 3, 1), (0, 3, 37)) && !compatible((0, 2, 1), (0, 3, 0)));
    }
}
