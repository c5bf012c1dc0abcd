//! The little of a Cargo.toml the macro needs: the names under which a package depends on other
//! packages, to find the `cuda-entry` crate when it is renamed (`cuda = { package = "cuda-entry",
//! ... }`). The macro's dependencies are syn, quote and proc-macro2 only, so this is a small TOML
//! reader of its own: it reads keys, strings, booleans and inline tables, and steps over arrays,
//! arrays of tables and every other value. `toml_reference` checks it against the `toml` crate.

/// A value the reader keeps: strings and booleans; [`Scalar::Table`] where a table is (a header,
/// an inline table), nothing of its own; arrays, numbers and dates are [`Scalar::Other`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Scalar {
    Str(String),
    Bool(bool),
    Table,
    Other,
}

/// Every value of a document with its full key path (table headers, dotted keys and inline tables
/// flattened: `[dependencies] cuda = { package = "x" }` is `["dependencies", "cuda", "package"]`).
/// Arrays of tables (`[[bin]]`) are left out: no dependency is declared in one.
pub(crate) type Entries = Vec<(Vec<String>, Scalar)>;

/// The tables that list dependencies (the underscore spellings are Cargo's old aliases).
const KINDS: [&str; 5] = [
    "dependencies",
    "dev-dependencies",
    "build-dependencies",
    "dev_dependencies",
    "build_dependencies",
];

/// The deepest nesting of arrays and inline tables the reader follows.
const DEPTH: usize = 256;

/// The dependencies of a manifest: (the name the crate is known by, the package it is), normal
/// dependencies first, then target-specific, dev and build ones. `workspace` is the workspace
/// root's manifest, for dependencies inherited with `workspace = true`.
pub(crate) fn dependencies(
    manifest: &Entries,
    workspace: Option<&Entries>,
) -> Vec<(String, String)> {
    let mut found: Vec<(String, String)> = Vec::new();
    for prefix in declarations(manifest) {
        let key = &prefix[prefix.len() - 1];
        let name = key.replace('-', "_");
        if found.iter().any(|(n, _)| *n == name) {
            continue;
        }
        let field = |field: &str| value(manifest, prefix, field);
        let package = match (field("package"), field("workspace")) {
            (Some(Scalar::Str(package)), _) => package.clone(),
            (_, Some(Scalar::Bool(true))) => workspace
                .and_then(|w| {
                    let prefix = [
                        "workspace".to_owned(),
                        "dependencies".to_owned(),
                        key.clone(),
                    ];
                    match value(w, &prefix, "package") {
                        Some(Scalar::Str(p)) => Some(p.clone()),
                        _ => None,
                    }
                })
                .unwrap_or_else(|| key.clone()),
            _ => key.clone(),
        };
        found.push((name, package));
    }
    found
}

/// The key path of each dependency's declaration (`["dependencies", "cuda"]`, `["target",
/// "cfg(unix)", "dependencies", "libc"]`), once per value under it: normal dependencies first,
/// then target-specific, dev and build ones.
fn declarations(manifest: &Entries) -> impl Iterator<Item = &[String]> {
    KINDS.iter().flat_map(move |kind| {
        [false, true].into_iter().flat_map(move |target| {
            manifest.iter().filter_map(move |(path, _)| {
                let depth = match (target, path.as_slice()) {
                    (false, [k, _, ..]) if k == kind => 2,
                    (true, [t, _, k, _, ..]) if t == "target" && k == kind => 4,
                    _ => return None,
                };
                Some(&path[..depth])
            })
        })
    })
}

/// Whether some dependency is inherited from the workspace (`workspace = true`).
pub(crate) fn inherits(manifest: &Entries) -> bool {
    declarations(manifest)
        .any(|prefix| value(manifest, prefix, "workspace") == Some(&Scalar::Bool(true)))
}

/// Whether the manifest is a workspace root (it has a `[workspace]` table).
pub(crate) fn is_workspace_root(manifest: &Entries) -> bool {
    manifest.iter().any(|(path, value)| match path.as_slice() {
        [w] => w == "workspace" && *value == Scalar::Table,
        [w, _, ..] => w == "workspace",
        [] => false,
    })
}

/// `package.workspace`: the path of the workspace root's directory, when the package names it.
pub(crate) fn package_workspace(manifest: &Entries) -> Option<&str> {
    manifest.iter().find_map(|(path, value)| match value {
        Scalar::Str(s) if path.as_slice() == ["package", "workspace"] => Some(s.as_str()),
        _ => None,
    })
}

fn value<'a>(entries: &'a Entries, prefix: &[String], field: &str) -> Option<&'a Scalar> {
    entries.iter().find_map(|(path, value)| {
        (path.len() == prefix.len() + 1 && path.starts_with(prefix) && path[prefix.len()] == field)
            .then_some(value)
    })
}

/// Reads a document.
///
/// # Errors
/// A description of the first thing it cannot read.
pub(crate) fn parse(text: &str) -> Result<Entries, String> {
    let mut reader = Reader {
        // A byte order mark is no part of the document.
        chars: text
            .strip_prefix('\u{feff}')
            .unwrap_or(text)
            .chars()
            .collect(),
        at: 0,
        depth: 0,
        entries: Vec::new(),
    };
    // The arrays of tables so far, and whether the current table is (in) one.
    let mut arrays: Vec<Vec<String>> = Vec::new();
    let mut table: Vec<String> = Vec::new();
    let mut in_array = false;
    loop {
        reader.skip_blank(true);
        match reader.peek() {
            None => return Ok(reader.entries),
            Some('[') => {
                reader.at += 1;
                let array = reader.eat('[');
                table = reader.key()?;
                reader.expect(']')?;
                if array {
                    reader.expect(']')?;
                    if !arrays.contains(&table) {
                        arrays.push(table.clone());
                    }
                }
                in_array = arrays.iter().any(|a| table.starts_with(a));
                if !in_array {
                    // The header itself, so that an empty `[workspace]` is seen.
                    reader.entries.push((table.clone(), Scalar::Table));
                }
                reader.end_of_line()?;
            }
            Some(_) => {
                let mark = reader.entries.len();
                let mut path = table.clone();
                path.extend(reader.key()?);
                reader.expect('=')?;
                reader.value(path, false)?;
                reader.end_of_line()?;
                if in_array {
                    reader.entries.truncate(mark);
                }
            }
        }
    }
}

struct Reader {
    chars: Vec<char>,
    at: usize,
    /// How deep in arrays and inline tables the value being read is.
    depth: usize,
    entries: Entries,
}

impl Reader {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn starts_with(&self, s: &str) -> bool {
        s.chars()
            .enumerate()
            .all(|(i, c)| self.chars.get(self.at + i) == Some(&c))
    }

    fn eat(&mut self, c: char) -> bool {
        let eaten = self.peek() == Some(c);
        self.at += usize::from(eaten);
        eaten
    }

    fn fail<T>(&self, what: &str) -> Result<T, String> {
        let line = 1 + self.chars[..self.at.min(self.chars.len())]
            .iter()
            .filter(|&&c| c == '\n')
            .count();
        Err(format!("line {line}: {what}"))
    }

    fn expect(&mut self, c: char) -> Result<(), String> {
        self.skip_blank(self.in_inline());
        if self.eat(c) {
            Ok(())
        } else {
            self.fail(&format!("expected `{c}`"))
        }
    }

    /// Inside an inline table or an array, where `toml` lets a key's `=` and its value stand on
    /// lines of their own (not the key's dots).
    fn in_inline(&self) -> bool {
        self.depth > 0
    }

    /// Skips spaces and comments, and newlines too when `newlines`.
    fn skip_blank(&mut self, newlines: bool) {
        while let Some(c) = self.peek() {
            match c {
                ' ' | '\t' | '\r' => self.at += 1,
                '\n' if newlines => self.at += 1,
                '#' => {
                    while self.peek().is_some_and(|c| c != '\n') {
                        self.at += 1;
                    }
                }
                _ => return,
            }
        }
    }

    fn end_of_line(&mut self) -> Result<(), String> {
        self.skip_blank(false);
        match self.peek() {
            None | Some('\n') => Ok(()),
            Some(_) => self.fail("expected the end of the line"),
        }
    }

    /// A dotted key: `a.b."c d".'e'`.
    fn key(&mut self) -> Result<Vec<String>, String> {
        let mut path = Vec::new();
        loop {
            self.skip_blank(false);
            let part = match self.peek() {
                Some('"' | '\'') => self.string()?,
                _ => {
                    let start = self.at;
                    while self
                        .peek()
                        .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
                    {
                        self.at += 1;
                    }
                    if start == self.at {
                        return self.fail("expected a key");
                    }
                    self.chars[start..self.at].iter().collect()
                }
            };
            path.push(part);
            self.skip_blank(false);
            if !self.eat('.') {
                return Ok(path);
            }
        }
    }

    /// A value at `path`; `nested` inside an inline table or array, where `,`, `]` and `}` end a
    /// scalar too.
    fn value(&mut self, path: Vec<String>, nested: bool) -> Result<(), String> {
        self.skip_blank(self.in_inline());
        let scalar = match self.peek() {
            Some('"' | '\'') => Scalar::Str(self.string()?),
            Some('{' | '[') if self.depth == DEPTH => return self.fail("nested too deep"),
            Some('{') => {
                self.at += 1;
                self.depth += 1;
                self.entries.push((path.clone(), Scalar::Table));
                loop {
                    self.skip_blank(true);
                    if self.eat('}') {
                        self.depth -= 1;
                        return Ok(());
                    }
                    let mut inner = path.clone();
                    inner.extend(self.key()?);
                    self.expect('=')?;
                    self.value(inner, true)?;
                    self.skip_blank(true);
                    if !self.eat(',') && self.peek() != Some('}') {
                        return self.fail("expected `,` or `}`");
                    }
                }
            }
            Some('[') => {
                self.at += 1;
                self.depth += 1;
                loop {
                    self.skip_blank(true);
                    if self.eat(']') {
                        self.depth -= 1;
                        break Scalar::Other;
                    }
                    // Arrays are stepped over: their values are read only to find the end.
                    let mark = self.entries.len();
                    self.value(Vec::new(), true)?;
                    self.entries.truncate(mark);
                    self.skip_blank(true);
                    if !self.eat(',') && self.peek() != Some(']') {
                        return self.fail("expected `,` or `]`");
                    }
                }
            }
            Some(_) => {
                let start = self.at;
                let ends =
                    |c: char| c == '\n' || c == '#' || (nested && matches!(c, ',' | ']' | '}'));
                while self.peek().is_some_and(|c| !ends(c)) {
                    self.at += 1;
                }
                let text: String = self.chars[start..self.at].iter().collect();
                match text.trim() {
                    "" => return self.fail("expected a value"),
                    "true" => Scalar::Bool(true),
                    "false" => Scalar::Bool(false),
                    _ => Scalar::Other,
                }
            }
            None => return self.fail("expected a value"),
        };
        self.entries.push((path, scalar));
        Ok(())
    }

    /// A basic or literal string, single- or multi-line.
    fn string(&mut self) -> Result<String, String> {
        let quote = self.peek().unwrap_or('"');
        let triple: String = [quote; 3].iter().collect();
        let multi = self.starts_with(&triple);
        self.at += if multi { 3 } else { 1 };
        if multi {
            // A newline right after the opening quotes is not part of the string.
            self.eat('\r');
            self.eat('\n');
        }
        let mut out = String::new();
        loop {
            if multi && self.starts_with(&triple) {
                // Up to two quotes may end the content right before the closing three.
                let mut run = 3;
                while self.chars.get(self.at + run) == Some(&quote) && run < 5 {
                    run += 1;
                }
                out.extend(std::iter::repeat_n(quote, run - 3));
                self.at += run;
                return Ok(out);
            }
            let Some(c) = self.peek() else {
                return self.fail("unterminated string");
            };
            self.at += 1;
            match c {
                c if c == quote && !multi => return Ok(out),
                '\n' if !multi => return self.fail("unterminated string"),
                '\\' if quote == '"' => self.escape(multi, &mut out)?,
                c => out.push(c),
            }
        }
    }

    fn escape(&mut self, multi: bool, out: &mut String) -> Result<(), String> {
        let Some(c) = self.peek() else {
            return self.fail("unterminated string");
        };
        self.at += 1;
        let plain = match c {
            'b' => '\u{8}',
            't' => '\t',
            'n' => '\n',
            'f' => '\u{c}',
            'r' => '\r',
            'e' => '\u{1b}',
            '"' => '"',
            '\\' => '\\',
            'u' | 'U' | 'x' => {
                let digits = match c {
                    'u' => 4,
                    'U' => 8,
                    _ => 2,
                };
                let hex: String = self.chars.iter().skip(self.at).take(digits).collect();
                self.at += digits;
                match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                    Some(c) => c,
                    None => return self.fail("invalid escape"),
                }
            }
            // A line-ending backslash: the whitespace up to the next text is dropped.
            c if multi && c.is_whitespace() => {
                while self.peek().is_some_and(char::is_whitespace) {
                    self.at += 1;
                }
                return Ok(());
            }
            _ => return self.fail("invalid escape"),
        };
        out.push(plain);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deps(text: &str) -> Vec<(String, String)> {
        dependencies(&parse(text).expect("parses"), None)
    }

    fn of(found: &[(String, String)], package: &str) -> Option<String> {
        found
            .iter()
            .find(|(_, p)| p == package)
            .map(|(n, _)| n.clone())
    }

    #[test]
    fn every_way_to_name_a_dependency() {
        let text = r#"
            [package]
            name = "app" # a comment
            authors = ["a \"quoted\" ] name", 'b']
            description = """
            a [dependencies] table "inside" a string, \
            and a = "fake" key"""

            [dependencies]
            plain = "1"
            "quoted-key" = { version = "1", features = ["x", "y"] }
            cuda = { package = "cuda-entry", version = "=0.1.0", path = "../../core" }
            serde.version = "1"
            serde.package = 'serde-renamed'

            [dependencies.gpu-sys]
            package = "company-gpu-sys"
            path = '..\gpu'

            [target.'cfg(unix)'.dependencies]
            libc = "0.2"

            [[bin]]
            name = "one"
            [[bin]]
            name = "two"

            [dev-dependencies]
            trybuild = { version = "1",
                         features = [ # comment
                            "diff",
                         ], }
        "#;
        let found = deps(text);
        assert_eq!(of(&found, "cuda-entry").as_deref(), Some("cuda"));
        assert_eq!(of(&found, "serde-renamed").as_deref(), Some("serde"));
        assert_eq!(of(&found, "company-gpu-sys").as_deref(), Some("gpu_sys"));
        assert_eq!(of(&found, "quoted-key").as_deref(), Some("quoted_key"));
        assert_eq!(of(&found, "libc").as_deref(), Some("libc"));
        assert_eq!(of(&found, "trybuild").as_deref(), Some("trybuild"));
        assert_eq!(of(&found, "plain").as_deref(), Some("plain"));
        assert_eq!(of(&found, "fake"), None, "keys inside strings are not keys");
    }

    #[test]
    fn normal_dependencies_come_before_dev_dependencies() {
        let found = deps(
            "[dev-dependencies]\ncuda-entry = \"0.1\"\n[target.'cfg(windows)'.dependencies]\n\
             cuda = { package = \"cuda-entry\" }\n",
        );
        assert_eq!(of(&found, "cuda-entry").as_deref(), Some("cuda"));
        let found = deps("[dev-dependencies]\ncuda-entry = \"0.1\"\n");
        assert_eq!(of(&found, "cuda-entry").as_deref(), Some("cuda_entry"));
    }

    #[test]
    fn a_dependency_named_after_another_package_is_that_package() {
        let found = deps("[dependencies]\ncuda-entry = { package = \"something-else\" }\n");
        assert_eq!(of(&found, "cuda-entry"), None);
    }

    #[test]
    fn inherited_dependencies_take_the_workspace_package() {
        let member = parse("[dependencies]\ncuda = { workspace = true, features = [] }\n").unwrap();
        let root = parse(
            "[workspace]\nmembers = [\"a\"]\n[workspace.dependencies]\n\
             cuda = { package = \"cuda-entry\", path = \"core\" }\n",
        )
        .unwrap();
        assert!(inherits(&member) && is_workspace_root(&root) && !is_workspace_root(&member));
        assert_eq!(
            of(&dependencies(&member, Some(&root)), "cuda-entry").as_deref(),
            Some("cuda")
        );
        assert_eq!(of(&dependencies(&member, None), "cuda-entry"), None);
    }

    #[test]
    fn malformed_documents_are_errors_not_panics() {
        for text in [
            "[dependencies\n",
            "a = \"unterminated\n",
            "a = { b = 1\n",
            "a = [1, 2\n",
            "= 1\n",
            "a = \"\\q\"\n",
            "a = \"\"\"never closed",
            "[[x]\n",
        ] {
            assert!(parse(text).is_err(), "{text:?}");
        }
        for text in [
            "",
            "\n\n# only a comment",
            "a = '''x''''\n",
            "a = \"\"\"x\"\"\"\"\"\n",
        ] {
            assert!(parse(text).is_ok(), "{text:?}");
        }
    }
}
