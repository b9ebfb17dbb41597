//! A prefix of an object store as a workspace root.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use object_store::path::Path as ObjectPath;
use object_store::ObjectStore;

use super::{store_for_url, ObjectConfig, ObjectSource};
use crate::error::{Error, Result};
use crate::protect::{Protect, RootPaths};
use crate::source::Source;

/// The most names a path may have (as in a local workspace).
const MAX_NAMES: usize = crate::walk::MAX_COMPONENTS;

/// A prefix of an object store (`s3://bucket/prefix`) that confines reads the way a
/// [`crate::Workspace`] confines them to a directory: a path names the object at
/// `prefix/path`; `..` that would leave the prefix, absolute paths and URLs of other
/// buckets or prefixes are refused with `Path "P" is outside the workspace`, and protected
/// patterns (gitignore-style, as in a workspace) with `Access denied: "P" is a protected
/// path`, before any request is made (so the answer is the same whether the object
/// exists or not). Object keys have no symbolic links, so the check is lexical and
/// complete.
///
/// ```no_run
/// use rangeread::{LineSelection, Reader};
/// use rangeread::object::ObjectRoot;
///
/// let root = ObjectRoot::open("s3://ci-artifacts/run-4711")?.protect(["secrets/"])?;
/// let src = root.source("logs/test.log")?; // s3://ci-artifacts/run-4711/logs/test.log
/// let page = Reader::new().document(src).read(LineSelection::tail(100))?;
/// # Ok::<(), rangeread::Error>(())
/// ```
pub struct ObjectRoot {
    store: Arc<dyn ObjectStore>,
    prefix: ObjectPath,
    url: String,
    protect: Protect,
    patterns: Vec<String>,
    config: ObjectConfig,
}

impl std::fmt::Debug for ObjectRoot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ObjectRoot")
            .field("url", &self.url)
            .field("protect", &self.patterns)
            .finish_non_exhaustive()
    }
}

fn no_protect() -> Protect {
    Protect::new(&[], false, &object_root_paths()).expect("no pattern is valid")
}

/// Patterns with a leading `/` are anchored at the prefix, as in `.gitignore`.
fn object_root_paths() -> RootPaths<'static> {
    RootPaths {
        root: Path::new("/"),
        alias: None,
    }
}

impl ObjectRoot {
    /// The prefix `url` names (`s3://bucket/prefix`, `gs://...`, `az://...`,
    /// `https://host/path`), with credentials and endpoint from the environment as
    /// [`ObjectSource::open`] takes them. Nothing is requested until a source is opened.
    ///
    /// # Errors
    ///
    /// [`Error::Io`] (kind `InvalidInput`) for a URL no store understands.
    pub fn open(url: &str) -> Result<ObjectRoot> {
        let (store, prefix) = store_for_url(url)?;
        Ok(ObjectRoot::from_store(store, prefix, url))
    }

    /// A prefix of a store the host built; `url` is what messages and caches call it.
    pub fn from_store(store: Arc<dyn ObjectStore>, prefix: ObjectPath, url: &str) -> ObjectRoot {
        ObjectRoot {
            store,
            prefix,
            url: url.trim_end_matches('/').to_string(),
            protect: no_protect(),
            patterns: Vec::new(),
            config: ObjectConfig {
                counters: Some(Arc::default()),
                ..ObjectConfig::default()
            },
        }
    }

    /// Refuses paths matching these gitignore-style patterns (`*.pem`, `secrets/`,
    /// `/config/prod.env`, `!keep.pem`), matched against the path relative to the prefix
    /// and each of its ancestors.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidPattern`] for a pattern that can never match or does not parse.
    pub fn protect<I, S>(mut self, patterns: I) -> Result<ObjectRoot>
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.patterns.extend(patterns.into_iter().map(Into::into));
        self.protect = Protect::new(&self.patterns, false, &object_root_paths())?;
        Ok(self)
    }

    /// How the sources opened under this root talk to the store.
    pub fn config(mut self, config: ObjectConfig) -> ObjectRoot {
        let counters = self.config.counters.take();
        self.config = ObjectConfig { counters, ..config };
        self
    }

    /// Requests made and bytes received by every source opened under this root.
    pub fn stats(&self) -> super::ObjectStats {
        self.config
            .counters
            .as_ref()
            .map_or_else(Default::default, |c| c.stats())
    }

    /// The protected patterns, as given.
    pub fn patterns(&self) -> &[String] {
        &self.patterns
    }

    /// The URL of the prefix.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The key `path` names under the prefix, and the path relative to the prefix; or
    /// why it may not be read. Makes no request.
    ///
    /// # Errors
    ///
    /// [`Error::OutsideWorkspace`], [`Error::Protected`], or [`Error::InvalidPath`] for a
    /// path that is not UTF-8 or has more than 32,768 names.
    pub fn resolve(&self, path: impl AsRef<Path>) -> Result<(ObjectPath, String)> {
        let asked = path.as_ref();
        let outside = || Error::OutsideWorkspace {
            path: asked.to_path_buf(),
        };
        let text = asked.to_str().ok_or_else(|| Error::InvalidPath {
            path: asked.to_path_buf(),
            reason: "object keys are UTF-8",
        })?;
        // The root's own URL may be given in full.
        let rel = match text.strip_prefix(&self.url) {
            Some(rest) if rest.starts_with('/') => &rest[1..],
            Some("") => "",
            _ if text.contains("://") || text.starts_with('/') => return Err(outside()),
            _ => text,
        };
        let mut names: Vec<&str> = Vec::new();
        for (i, name) in rel.split('/').enumerate() {
            if i >= MAX_NAMES {
                return Err(Error::InvalidPath {
                    path: asked.to_path_buf(),
                    reason: "more than 32768 components to resolve (links included)",
                });
            }
            match name {
                "" | "." => {}
                ".." => {
                    names.pop().ok_or_else(outside)?;
                }
                n => {
                    names.push(n);
                    // A protected "directory" is refused as it is entered, whatever
                    // follows (`secrets/x/..` too), as in a local workspace.
                    let so_far: PathBuf = names.iter().collect();
                    if self.protect.matches_one(&so_far, true) {
                        return Err(Error::Protected {
                            path: asked.to_path_buf(),
                        });
                    }
                }
            }
        }
        let rel_path: PathBuf = names.iter().collect();
        if names.is_empty() {
            return Err(Error::IsDirectory {
                path: asked.to_path_buf(),
            });
        }
        if self.protect.matches(&rel_path, false) {
            return Err(Error::Protected {
                path: asked.to_path_buf(),
            });
        }
        let mut key = self.prefix.clone();
        for n in &names {
            key = key.join(*n);
        }
        Ok((key, names.join("/")))
    }

    /// Opens the object `path` names under the prefix (see [`ObjectRoot::resolve`] for
    /// what is refused), as a source whose path is `path` relative to the prefix.
    ///
    /// # Errors
    ///
    /// As [`ObjectRoot::resolve`], then as [`ObjectSource::open`].
    pub fn source(&self, path: impl AsRef<Path>) -> Result<Source> {
        self.source_at(path, |_| None)
    }

    /// Like [`ObjectRoot::source`]; `known` answers, for the object's URL, the size and
    /// version an index directory stored for it: the object is then opened at that
    /// version without a request (see [`ObjectSource::at_version`]).
    pub(crate) fn source_at(
        &self,
        path: impl AsRef<Path>,
        known: impl FnOnce(&str) -> Option<(u64, String)>,
    ) -> Result<Source> {
        let (key, rel) = self.resolve(path.as_ref())?;
        let url = format!("{}/{rel}", self.url);
        let (store, config) = (self.store.clone(), self.config.clone());
        let lazy = known(&url).and_then(|(size, version)| {
            ObjectSource::at_version(
                store.clone(),
                key.clone(),
                &url,
                config.clone(),
                size,
                &version,
            )
        });
        let obj = match lazy {
            Some(opened) => opened,
            None => ObjectSource::from_store(store, key, &url, config),
        }
        .map_err(|e| rename(e, path.as_ref()))?;
        Ok(Source::from_random_access(Arc::new(obj), path.as_ref()))
    }
}

/// An error about the object's URL, told with the path as the caller gave it (messages
/// show paths relative to the root).
fn rename(e: Error, asked: &Path) -> Error {
    let path = asked.to_path_buf();
    match e {
        Error::NotFound { .. } => Error::NotFound { path },
        Error::PermissionDenied { .. } => Error::PermissionDenied { path },
        Error::Io { source, .. } => Error::Io { path, source },
        e => e,
    }
}
