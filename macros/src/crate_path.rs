//! Where the `cuda-entry` crate is, as the declaring crate names it: the `crate = "..."`
//! argument (serde's convention, for a crate that reaches cuda-entry through a re-export), else
//! the name the declaring package's Cargo.toml gives the `cuda-entry` dependency (a renamed
//! dependency: `cuda = { package = "cuda-entry", ... }`), else `::cuda_entry`. Every path of the
//! expansion starts with it.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::SystemTime;

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote};
use syn::{Ident, PathSegment};

use crate::cargo_toml;
use crate::text::PathCode;

/// The package whose crate the expansion names.
const PACKAGE: &str = "cuda-entry";

/// The crate's path where the declaration is and from inside its generated module.
pub(crate) struct Paths {
    /// As written where the declaration is.
    pub(crate) outer: syn::Path,
    /// The same crate, named from inside the module the expansion generates.
    pub(crate) inner: syn::Path,
    /// Whether the paths were made here, at the call site (not given by `crate = ...`, whose
    /// tokens keep their spans so that a wrong path is reported where it is written).
    pub(crate) made: bool,
}

impl Paths {
    /// `<crate>::__private`, where the declaration is.
    pub(crate) fn private(&self) -> TokenStream {
        let path = &self.outer;
        quote!(#path::__private)
    }

    /// `<crate>::__private`, inside the generated module.
    pub(crate) fn inner_private(&self) -> TokenStream {
        let path = &self.inner;
        quote!(#path::__private)
    }

    /// [`Paths::inner_private`] for [`Text`](crate::text::Text): as text where the path was made
    /// here.
    pub(crate) fn inner_private_path(&self) -> PathCode {
        if self.made {
            let path = &self.inner;
            PathCode::Text(format!("{}::__private", quote!(#path)))
        } else {
            PathCode::Tokens(self.inner_private())
        }
    }

    /// `item` of the crate as an intra-doc link (code text alone where rustdoc cannot follow the
    /// path: `$crate`). Without a leading `::`, which rustdoc takes for a URL: the path then
    /// resolves as a use of the extern crate does.
    pub(crate) fn doc_link(&self, inner: bool, item: &str) -> String {
        let path = if inner { &self.inner } else { &self.outer };
        let text = path.to_token_stream().to_string().replace(' ', "");
        let text = text.trim_start_matches("::");
        if text.contains('$') {
            format!("`{item}`")
        } else {
            format!("[`{item}`]({text}::{item})")
        }
    }
}

/// The paths for a declaration, given its `crate = "..."` argument if any.
///
/// # Errors
/// The message for a package whose Cargo.toml has no `cuda-entry` dependency under any name,
/// when no `crate = "..."` says where else the crate is.
pub(crate) fn locate(given: Option<&syn::Path>) -> Result<Paths, String> {
    let package = std::env::var("CARGO_PKG_NAME").ok();
    locate_in(given, manifest(), package.as_deref())
}

/// The paths without reading a manifest: `::cuda_entry` unless given. For the macro's tests and
/// fuzz targets, which run outside any declaring crate's build.
#[cfg(any(test, fuzzing))]
pub(crate) fn without_manifest(given: Option<&syn::Path>) -> Result<Paths, String> {
    locate_in(given, None, None)
}

/// `package`: the declaring package's name (`CARGO_PKG_NAME`).
fn locate_in(
    given: Option<&syn::Path>,
    manifest: Option<Manifest>,
    package: Option<&str>,
) -> Result<Paths, String> {
    let Some(given) = given else {
        let outer = match &manifest {
            Some(Manifest {
                name: Some(name), ..
            }) => absolute(name),
            Some(Manifest {
                name: None,
                certain: true,
                path,
                ..
            }) if package.is_some_and(|p| p != PACKAGE) => {
                return Err(format!(
                    "cannot find the `cuda-entry` crate: {} has no dependency on it under any \
                     name; depend on `cuda-entry`, or add `crate = \"path::to::cuda_entry\"` \
                     naming where a dependency re-exports it (e.g. `crate = \
                     \"gpu_sys::cuda_entry\"`)",
                    path.display()
                ));
            }
            _ => absolute("cuda_entry"),
        };
        return Ok(Paths {
            inner: outer.clone(),
            outer,
            made: true,
        });
    };
    Ok(Paths {
        outer: given.clone(),
        inner: inner(given, manifest.as_ref()),
        made: false,
    })
}

/// `::name`.
fn absolute(name: &str) -> syn::Path {
    let ident = Ident::new(name, Span::call_site());
    syn::parse_quote!(::#ident)
}

/// `path` as the generated module names it: one level further down. `self::` becomes `super::`,
/// `super::` becomes `super::super::`, a local name gets `super::`; `::`, `crate::`, `$crate::`
/// and the name of a dependency (an extern crate) mean the same everywhere.
fn inner(path: &syn::Path, manifest: Option<&Manifest>) -> syn::Path {
    let Some(first) = path.segments.first().map(|s| s.ident.to_string()) else {
        return path.clone();
    };
    let dependency = |name: &str| manifest.is_none_or(|m| m.dependencies.iter().any(|d| d == name));
    if path.leading_colon.is_some()
        || first == "crate"
        || first == "$crate"
        || (first != "self" && first != "super" && dependency(&first))
    {
        return path.clone();
    }
    let mut inner = path.clone();
    let down: PathSegment = Ident::new("super", Span::call_site()).into();
    if first == "self" {
        inner.segments[0] = down;
    } else {
        inner.segments.insert(0, down);
    }
    inner
}

/// What the declaring package's Cargo.toml says.
#[derive(Clone)]
struct Manifest {
    path: PathBuf,
    /// The name of the `cuda-entry` dependency, `_` for `-`.
    name: Option<String>,
    /// The names of every dependency.
    dependencies: Vec<String>,
    /// Whether every dependency's package is known (an inherited one needs the workspace root).
    certain: bool,
}

/// The last manifest read, by path and modification time: the macro runs once per declaration,
/// and rust-analyzer keeps it loaded across edits.
type Cached = (PathBuf, Option<SystemTime>, Option<Manifest>);
static CACHE: Mutex<Option<Cached>> = Mutex::new(None);

/// The declaring package's manifest (`CARGO_MANIFEST_DIR`, set by cargo); `None` outside cargo
/// or when it cannot be read.
fn manifest() -> Option<Manifest> {
    let dir = std::env::var_os("CARGO_MANIFEST_DIR")?;
    let path = Path::new(&dir).join("Cargo.toml");
    let modified = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
    let mut cache = CACHE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((p, m, manifest)) = &*cache
        && *p == path
        && *m == modified
    {
        return manifest.clone();
    }
    let manifest = read(&path);
    *cache = Some((path, modified, manifest.clone()));
    manifest
}

fn read(path: &Path) -> Option<Manifest> {
    let entries = cargo_toml::parse(&std::fs::read_to_string(path).ok()?).ok()?;
    let workspace = if cargo_toml::inherits(&entries) {
        workspace_root(path, &entries)
    } else {
        None
    };
    let dependencies = cargo_toml::dependencies(&entries, workspace.as_ref());
    Some(Manifest {
        path: path.to_path_buf(),
        name: dependencies
            .iter()
            .find(|(_, package)| package == PACKAGE)
            .map(|(name, _)| name.clone()),
        dependencies: dependencies.into_iter().map(|(name, _)| name).collect(),
        certain: workspace.is_some() || !cargo_toml::inherits(&entries),
    })
}

/// The workspace root's manifest: `package.workspace` if set, else the nearest manifest at or
/// above the package's with a `[workspace]` table (cargo's own search).
fn workspace_root(path: &Path, member: &cargo_toml::Entries) -> Option<cargo_toml::Entries> {
    if cargo_toml::is_workspace_root(member) {
        return Some(member.clone());
    }
    let dir = path.parent()?;
    let explicit = cargo_toml::package_workspace(member).map(|s| dir.join(s).join("Cargo.toml"));
    let candidates: Vec<PathBuf> = match explicit {
        Some(root) => vec![root],
        None => dir
            .ancestors()
            .skip(1)
            .map(|d| d.join("Cargo.toml"))
            .collect(),
    };
    candidates.into_iter().find_map(|candidate| {
        let entries = cargo_toml::parse(&std::fs::read_to_string(candidate).ok()?).ok()?;
        cargo_toml::is_workspace_root(&entries).then_some(entries)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest(dependencies: &[&str]) -> Manifest {
        Manifest {
            path: PathBuf::from("Cargo.toml"),
            name: None,
            dependencies: dependencies.iter().map(|d| (*d).to_owned()).collect(),
            certain: true,
        }
    }

    fn inner_of(path: &str, manifest: Option<&Manifest>) -> String {
        let path: syn::Path = syn::parse_str(path).expect("a path");
        inner(&path, manifest)
            .to_token_stream()
            .to_string()
            .replace(' ', "")
    }

    #[test]
    fn the_module_names_the_crate_one_level_down() {
        let m = manifest(&["gpu_sys"]);
        let cases = [
            ("::gpu_sys::cuda_entry", "::gpu_sys::cuda_entry"),
            ("crate::reexport::cuda_entry", "crate::reexport::cuda_entry"),
            ("gpu_sys::cuda_entry", "gpu_sys::cuda_entry"),
            ("self::reexport", "super::reexport"),
            ("super::reexport", "super::super::reexport"),
            ("reexport::cuda_entry", "super::reexport::cuda_entry"),
        ];
        for (path, expected) in cases {
            assert_eq!(inner_of(path, Some(&m)), expected, "{path}");
        }
        // Without a manifest, a plain name is taken for an extern crate.
        assert_eq!(
            inner_of("reexport::cuda_entry", None),
            "reexport::cuda_entry"
        );
    }

    fn outer_of(manifest: Manifest, package: &str) -> Result<String, String> {
        let paths = locate_in(None, Some(manifest), Some(package))?;
        Ok(paths.outer.to_token_stream().to_string().replace(' ', ""))
    }

    #[test]
    fn the_manifest_names_a_renamed_dependency() {
        let renamed = Manifest {
            name: Some("cuda".to_owned()),
            ..manifest(&["cuda"])
        };
        assert_eq!(outer_of(renamed, "app").as_deref(), Ok("::cuda"));
        // The facade's own tests and examples name it `::cuda_entry`; so does an unsure reading.
        assert_eq!(
            outer_of(manifest(&[]), "cuda-entry").as_deref(),
            Ok("::cuda_entry")
        );
        let unsure = Manifest {
            certain: false,
            ..manifest(&[])
        };
        assert_eq!(outer_of(unsure, "app").as_deref(), Ok("::cuda_entry"));
    }

    #[test]
    fn a_package_without_the_dependency_is_told_how_to_name_it() {
        let message = outer_of(manifest(&["gpu_sys"]), "app").expect_err("no cuda-entry");
        assert_eq!(
            message,
            "cannot find the `cuda-entry` crate: Cargo.toml has no dependency on it under any \
             name; depend on `cuda-entry`, or add `crate = \"path::to::cuda_entry\"` naming \
             where a dependency re-exports it (e.g. `crate = \"gpu_sys::cuda_entry\"`)"
        );
        // `crate = ...` says where: nothing to read.
        let given: syn::Path = syn::parse_quote!(gpu_sys::cuda_entry);
        let paths = locate_in(Some(&given), Some(manifest(&["gpu_sys"])), Some("app")).unwrap();
        assert_eq!(
            paths.inner.to_token_stream().to_string().replace(' ', ""),
            "gpu_sys::cuda_entry"
        );
    }

    #[test]
    fn an_inherited_dependency_is_read_from_the_workspace_root() {
        let dir = std::env::temp_dir().join(format!("cuda-entry-macros-{}", std::process::id()));
        let member = dir.join("members/service");
        std::fs::create_dir_all(&member).unwrap();
        let write = |path: PathBuf, text: &str| std::fs::write(path, text).unwrap();
        write(
            member.join("Cargo.toml"),
            "[package]\nname = \"service\"\n[dependencies]\ncuda = { workspace = true }\n",
        );
        // Without a root, the package of `cuda` is unknown: no claim that it is missing.
        let alone = read(&member.join("Cargo.toml")).expect("readable");
        assert_eq!((alone.name, alone.certain), (None, false));
        write(
            dir.join("Cargo.toml"),
            "[workspace]\nmembers = [\"members/*\"]\n[workspace.dependencies]\n\
             cuda = { package = \"cuda-entry\", path = \"core\" }\n",
        );
        let found = read(&member.join("Cargo.toml")).expect("readable");
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!((found.name.as_deref(), found.certain), (Some("cuda"), true));
    }

    #[test]
    fn doc_links_name_the_crate_as_written() {
        let paths = Paths {
            outer: syn::parse_quote!(::cuda),
            inner: syn::parse_quote!(super::x),
            made: false,
        };
        assert_eq!(paths.doc_link(false, "Error"), "[`Error`](cuda::Error)");
        assert_eq!(paths.doc_link(true, "Error"), "[`Error`](super::x::Error)");
    }
}
