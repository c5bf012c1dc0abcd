//! No import cycle between the modules of any crate of this repository: the modules of one parent
//! form layers, each naming only those below it, by `use` lines, inline paths (`crate::x::f()`,
//! `super::x::f()`) or a macro's `$crate::x` paths.
//!
//! A module and the modules inside it count as one: a child naming its parent's items
//! (`use super::State;`) and a parent naming its children's are how Rust splits one module into
//! files, not a cycle. Two siblings naming each other, directly or through others of their
//! parent, are: `rules::callback` naming `rules::signature` naming `rules::callback` (through
//! `rules::validate`) was one.
//!
//! Each crate's module tree is read from its root (`src/lib.rs`, `src/main.rs`) through its
//! `mod` items, inline ones and `#[path]` ones included, with proc-macro2's lexer, so comments
//! and strings never count.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use proc_macro2::{Delimiter, TokenStream, TokenTree};

/// A module's path from its crate root: `["rules", "callback"]`.
type ModulePath = Vec<String>;

/// One crate's modules and what each names.
#[derive(Default)]
struct Crate {
    /// Every module, with the file that holds it.
    modules: BTreeMap<ModulePath, PathBuf>,
    /// What each module's tokens name, as written from that module: `(module, path, file)`.
    references: Vec<(ModulePath, Vec<String>, PathBuf)>,
}

/// The crate whose root is `root`.
fn read_crate(root: &Path) -> Crate {
    let mut krate = Crate::default();
    read_file(&mut krate, root, Vec::new(), true);
    krate
}

/// Reads the module `module` held by `file`, and the files of the modules it declares.
/// `owns_directory`: whether its children's files sit beside it (a crate root or a `mod.rs`)
/// rather than in a directory named after it.
fn read_file(krate: &mut Crate, file: &Path, module: ModulePath, owns_directory: bool) {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let tokens: TokenStream = text
        .parse()
        .unwrap_or_else(|e| panic!("{}: not Rust tokens: {e:?}", file.display()));
    krate.modules.insert(module.clone(), file.to_owned());
    let dir = file.parent().expect("a file has a directory");
    let children_dir = if owns_directory {
        dir.to_owned()
    } else {
        dir.join(file.file_stem().expect("a file stem"))
    };
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    read_tokens(krate, file, &module, &tokens, &children_dir, dir);
}

/// Reads the tokens of `module` (a file's, or an inline module's): its `mod` items and what it
/// names.
fn read_tokens(
    krate: &mut Crate,
    file: &Path,
    module: &ModulePath,
    tokens: &[TokenTree],
    children_dir: &Path,
    file_dir: &Path,
) {
    let mut path_attribute: Option<String> = None;
    let mut i = 0;
    while i < tokens.len() {
        match &tokens[i] {
            // `#[path = "..."]` before a `mod`.
            TokenTree::Punct(p) if p.as_char() == '#' => {
                if let Some(TokenTree::Group(g)) = tokens.get(i + 1)
                    && g.delimiter() == Delimiter::Bracket
                {
                    let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                    if let [
                        TokenTree::Ident(name),
                        TokenTree::Punct(eq),
                        TokenTree::Literal(lit),
                    ] = inner.as_slice()
                        && name == "path"
                        && eq.as_char() == '='
                    {
                        let lit = lit.to_string();
                        path_attribute = Some(lit.trim_matches('"').to_owned());
                    } else {
                        // Paths inside other attributes (`#[cfg_attr(...)]`) are read too.
                        read_paths(krate, file, module, &inner);
                    }
                    i += 2;
                    continue;
                }
                i += 1;
            }
            TokenTree::Ident(kw) if kw == "mod" => {
                let Some(TokenTree::Ident(name)) = tokens.get(i + 1) else {
                    i += 1;
                    continue;
                };
                let name = name.to_string();
                let mut child = module.clone();
                child.push(name.clone());
                match tokens.get(i + 2) {
                    Some(TokenTree::Punct(p)) if p.as_char() == ';' => {
                        let (child_file, owns) = match path_attribute.take() {
                            Some(path) => {
                                let path = file_dir.join(path);
                                let owns = path.file_name().is_some_and(|n| n == "mod.rs");
                                (path, owns)
                            }
                            None => {
                                let flat = children_dir.join(format!("{name}.rs"));
                                if flat.exists() {
                                    (flat, false)
                                } else {
                                    (children_dir.join(&name).join("mod.rs"), true)
                                }
                            }
                        };
                        read_file(krate, &child_file, child, owns);
                        i += 3;
                    }
                    Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace => {
                        path_attribute = None;
                        krate.modules.insert(child.clone(), file.to_owned());
                        let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                        let dir = children_dir.join(&name);
                        read_tokens(krate, file, &child, &inner, &dir, file_dir);
                        i += 3;
                    }
                    _ => i += 1,
                }
            }
            TokenTree::Ident(kw) if kw == "use" => {
                let end = tokens[i..]
                    .iter()
                    .position(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ';'))
                    .map_or(tokens.len(), |n| i + n);
                let mut paths = Vec::new();
                use_tree(&tokens[i + 1..end], Vec::new(), &mut paths);
                for path in paths {
                    krate
                        .references
                        .push((module.clone(), path, file.to_owned()));
                }
                i = end + 1;
            }
            _ => {
                read_paths(krate, file, module, &tokens[i..=i]);
                i += 1;
            }
        }
    }
}

/// The paths a `use` tree names (after `use`, before `;`), each with `prefix` before it.
fn use_tree(tokens: &[TokenTree], prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    let mut path = prefix;
    let mut named = false;
    for t in tokens {
        match t {
            TokenTree::Ident(id) if id == "as" => break,
            TokenTree::Ident(id) => {
                if id != "self" || path.is_empty() {
                    path.push(id.to_string());
                }
                named = true;
            }
            TokenTree::Group(g) if g.delimiter() == Delimiter::Brace => {
                let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                for part in inner.split(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ','))
                {
                    use_tree(part, path.clone(), out);
                }
                return;
            }
            _ => {}
        }
    }
    if named {
        out.push(path);
    }
}

/// The paths beginning with `crate`, `$crate`, `super` or `self` among `tokens`, at any depth.
fn read_paths(krate: &mut Crate, file: &Path, module: &ModulePath, tokens: &[TokenTree]) {
    let mut i = 0;
    while i < tokens.len() {
        match &tokens[i] {
            TokenTree::Group(g) => {
                let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                read_paths(krate, file, module, &inner);
                i += 1;
            }
            TokenTree::Ident(id) if id == "crate" || id == "super" || id == "self" => {
                // Only where a path begins: not `pub(crate)`, `pub(super)` (a lone ident in a
                // group) nor the `self` of a method.
                let mut path = vec![id.to_string()];
                let mut j = i + 1;
                while let (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)), Some(next)) =
                    (tokens.get(j), tokens.get(j + 1), tokens.get(j + 2))
                {
                    if a.as_char() != ':' || b.as_char() != ':' {
                        break;
                    }
                    match next {
                        TokenTree::Ident(n) => path.push(n.to_string()),
                        TokenTree::Group(g) if g.delimiter() == Delimiter::Brace => {
                            // `crate::{a, b}` in a macro's `use`.
                            let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                            let mut paths = Vec::new();
                            use_tree(&inner, path.clone(), &mut paths);
                            for p in paths {
                                krate.references.push((module.clone(), p, file.to_owned()));
                            }
                            path.clear();
                            break;
                        }
                        _ => break,
                    }
                    j += 3;
                }
                if path.len() > 1 {
                    krate
                        .references
                        .push((module.clone(), path, file.to_owned()));
                }
                i = j.max(i + 1);
            }
            _ => i += 1,
        }
    }
}

/// The module `path`, written in `module`, names: the longest known module it begins with.
/// `None` for a path outside the crate (`std::...`, another crate's).
fn resolve(
    modules: &BTreeMap<ModulePath, PathBuf>,
    module: &ModulePath,
    path: &[String],
) -> Option<ModulePath> {
    let mut full: ModulePath = module.clone();
    let mut rest = path;
    match rest.first().map(String::as_str) {
        Some("crate") => {
            full.clear();
            rest = &rest[1..];
        }
        Some("super" | "self") => {
            while let Some(first) = rest.first() {
                match first.as_str() {
                    "super" => {
                        full.pop()?;
                    }
                    "self" => {}
                    _ => break,
                }
                rest = &rest[1..];
            }
        }
        Some(first) => {
            // A relative path names a child of this module, or something outside the crate.
            let mut child = module.clone();
            child.push(first.to_owned());
            if !modules.contains_key(&child) {
                return None;
            }
        }
        None => return None,
    }
    full.extend(rest.iter().cloned());
    (0..=full.len())
        .rev()
        .map(|n| full[..n].to_vec())
        .find(|prefix| modules.contains_key(prefix))
}

/// The cycles among siblings: for each parent, the groups of its children that name each other
/// (each group with its edges and the files they are written in).
fn cycles(krate: &Crate) -> Vec<String> {
    // parent -> child -> (child it names -> a file where it does)
    type Edges = BTreeMap<ModulePath, BTreeMap<String, BTreeMap<String, PathBuf>>>;
    let mut edges: Edges = BTreeMap::new();
    for (module, path, file) in &krate.references {
        let Some(target) = resolve(&krate.modules, module, path) else {
            continue;
        };
        let common = module
            .iter()
            .zip(&target)
            .take_while(|(a, b)| a == b)
            .count();
        if common == module.len() || common == target.len() {
            // Within one module and what it holds: a parent and its child, or itself.
            continue;
        }
        edges
            .entry(module[..common].to_vec())
            .or_default()
            .entry(module[common].clone())
            .or_default()
            .entry(target[common].clone())
            .or_insert_with(|| file.clone());
    }
    let mut found = Vec::new();
    for (parent, graph) in &edges {
        for component in strongly_connected(graph) {
            let mut lines = Vec::new();
            for from in &component {
                for (to, file) in &graph[from] {
                    if component.contains(to) {
                        lines.push(format!("  {from} -> {to} ({})", file.display()));
                    }
                }
            }
            let parent = if parent.is_empty() {
                "the crate root".to_owned()
            } else {
                parent.join("::")
            };
            found.push(format!(
                "in {parent}, {} name each other:\n{}",
                component.iter().cloned().collect::<Vec<_>>().join(", "),
                lines.join("\n")
            ));
        }
    }
    found
}

/// The strongly connected components of more than one node (Tarjan's algorithm).
fn strongly_connected(
    graph: &BTreeMap<String, BTreeMap<String, PathBuf>>,
) -> Vec<BTreeSet<String>> {
    struct State<'a> {
        graph: &'a BTreeMap<String, BTreeMap<String, PathBuf>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        out: Vec<BTreeSet<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        let graph = s.graph;
        for w in graph.get(v).into_iter().flat_map(|m| m.keys()) {
            let w = w.as_str();
            if !s.index.contains_key(w) {
                visit(s, w);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v, low);
            } else if s.on_stack.contains(w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = BTreeSet::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                component.insert(w.to_owned());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                s.out.push(component);
            }
        }
    }
    let mut state = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !state.index.contains_key(v.as_str()) {
            visit(&mut state, v);
        }
    }
    state.out
}

/// Every crate root of this repository's packages (each `Cargo.toml`'s `src/lib.rs` and
/// `src/main.rs`), outside build output.
fn crate_roots() -> Vec<PathBuf> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut roots = Vec::new();
    let mut dirs = vec![repo.to_owned()];
    while let Some(dir) = dirs.pop() {
        let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if path.is_dir() && !name.starts_with('.') && name != "target" {
                dirs.push(path);
            } else if name == "Cargo.toml" {
                for root in ["src/lib.rs", "src/main.rs"] {
                    let root = dir.join(root);
                    if root.exists() {
                        roots.push(root);
                    }
                }
            }
        }
    }
    roots.sort();
    roots
}

#[test]
fn no_module_names_a_sibling_that_names_it_back() {
    let roots = crate_roots();
    // The crates the issue names, so that the walk cannot silently miss them.
    for named in [
        "macros/src/lib.rs",
        "macros/table/src/lib.rs",
        "core/sim/src/lib.rs",
        "core/sim/simdriver-core/src/lib.rs",
    ] {
        assert!(
            roots.iter().any(|r| r.ends_with(named)),
            "{named} is not among the crate roots found"
        );
    }
    let mut found = Vec::new();
    let mut modules = 0;
    for root in &roots {
        let krate = read_crate(root);
        modules += krate.modules.len();
        for cycle in cycles(&krate) {
            found.push(format!("{}: {cycle}", root.display()));
        }
    }
    assert!(
        modules > roots.len() * 2,
        "only {modules} modules read in {} crates",
        roots.len()
    );
    assert!(
        found.is_empty(),
        "modules that name each other (move what both need into a module of its own, below \
         both):\n{}",
        found.join("\n")
    );
}

/// The test above can fail: a crate of three siblings, `a` naming `b` by a `use` line, `b`
/// naming `c` by an inline path, `c` naming `a` through a macro's `$crate`, is one cycle; a
/// child naming its parent and comments or strings naming a sibling are none.
#[test]
fn a_cycle_through_use_inline_and_macro_paths_is_found() {
    let dir = std::env::temp_dir().join(format!("cuda-entry-module-layers-{}", std::process::id()));
    let src = dir.join("src");
    std::fs::create_dir_all(src.join("b")).expect("create the crate");
    let files = [
        (
            "lib.rs",
            "mod a;\nmod b;\n#[path = \"elsewhere.rs\"]\nmod c;\nmod d { pub fn f() {} }\n",
        ),
        (
            "a.rs",
            "use super::{b::{self, Thing as _}, d};\n// crate::c::nothing\n",
        ),
        (
            "b.rs",
            "mod inner;\npub fn g() { crate::c::h(); let _ = \"super::a::x\"; }\n",
        ),
        (
            "b/inner.rs",
            "use super::super::b::g;\nuse super::g as _;\n",
        ),
        (
            "elsewhere.rs",
            "macro_rules! m { () => { $crate::a::f() }; }\npub(crate) fn h() {}\n",
        ),
    ];
    for (name, text) in files {
        std::fs::write(src.join(name), text).expect("write a file");
    }
    let krate = read_crate(&src.join("lib.rs"));
    let found = cycles(&krate);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(
        krate.modules.keys().cloned().collect::<Vec<_>>(),
        vec![
            vec![],
            vec!["a".to_owned()],
            vec!["b".to_owned()],
            vec!["b".to_owned(), "inner".to_owned()],
            vec!["c".to_owned()],
            vec!["d".to_owned()],
        ]
    );
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].starts_with("in the crate root, a, b, c name each other:"),
        "{}",
        found[0]
    );
    // `a -> d` is no part of it, and `b::inner` naming `b` is none.
    assert!(!found[0].contains("-> d"), "{}", found[0]);
    assert_eq!(found[0].lines().count(), 4, "{}", found[0]);
}
