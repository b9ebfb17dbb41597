//! `rangeread` for Python: the library's `Reader`, `Workspace` and `DialectTool` as
//! Python classes, over `rangeread-bindings` (the options, results and errors every
//! binding shares). No reading logic lives here: each call converts its arguments,
//! releases the GIL, runs the library, and converts the answer.

use std::borrow::Cow;
use std::path::PathBuf;
use std::sync::OnceLock;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};
use pythonize::{depythonize, pythonize};
use rangeread_bindings::rangeread::tool::{Dialect, DialectTool as RustTool};
use rangeread_bindings::rangeread::{Reader as RustReader, Workspace as RustWorkspace};
use rangeread_bindings::{
    dialect_json, guard, options, read as run_read, response_json, BindError, Output, Place, Scope,
};
use serde_json::Value;

/// Raises `e` as the `rangeread` exception of its kind (defined in Python, in
/// `rangeread/_errors.py`, so that each can also be the matching builtin).
fn to_py(py: Python<'_>, e: BindError) -> PyErr {
    static RAISE: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let made = RAISE
        .get_or_try_init(py, || -> PyResult<Py<PyAny>> {
            Ok(py.import("rangeread._errors")?.getattr("make")?.unbind())
        })
        .and_then(|make| {
            let values = pythonize(py, &e.values)?;
            make.call1(
                py,
                (
                    e.kind.as_str(),
                    e.message.as_str(),
                    e.parameter.clone(),
                    e.path.clone(),
                    values,
                ),
            )
        });
    match made {
        Ok(err) => PyErr::from_value(err.into_bound(py)),
        Err(lookup) => PyRuntimeError::new_err(format!("{} (and {lookup})", e.message)),
    }
}

/// Keyword arguments as the JSON object the shared options take.
fn kwargs_json(kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Value> {
    match kwargs {
        None => Ok(Value::Null),
        Some(d) => Ok(depythonize(d.as_any())?),
    }
}

/// Runs `f` without the GIL, panics caught.
fn detached<T: Send>(
    py: Python<'_>,
    f: impl FnOnce() -> Result<T, BindError> + Send,
) -> PyResult<T> {
    py.detach(|| guard(f)).map_err(|e| to_py(py, e))
}

/// A JSON value as Python objects (dicts, lists, str, int, float, bool, None).
fn json_py(py: Python<'_>, v: &Value) -> PyResult<Py<PyAny>> {
    Ok(pythonize(py, v)?.unbind())
}

/// Reads files: budgets and policies as keyword arguments (`max_lines=0`: no limit).
#[pyclass(frozen, module = "rangeread")]
struct Reader {
    inner: RustReader,
}

#[pymethods]
impl Reader {
    #[new]
    #[pyo3(signature = (**options))]
    fn new(py: Python<'_>, options: Option<&Bound<'_, PyDict>>) -> PyResult<Reader> {
        let inner = options::reader(kwargs_json(options)?).map_err(|e| to_py(py, e))?;
        Ok(Reader { inner })
    }

    /// Reads a selection of a text file (or its outline with `outline=True`).
    #[pyo3(signature = (path, **selection))]
    fn read(
        &self,
        py: Python<'_>,
        path: PathBuf,
        selection: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        let (reader, request) =
            options::text_call(&self.inner, kwargs_json(selection)?).map_err(|e| to_py(py, e))?;
        let out = detached(py, || run_read(&reader, Place::Path, &path, &request))?;
        wrap(py, out, &reader)
    }

    /// `read` of a path inside a workspace.
    #[pyo3(signature = (workspace, path, **selection))]
    fn read_in(
        &self,
        py: Python<'_>,
        workspace: &Workspace,
        path: PathBuf,
        selection: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        let (reader, request) =
            options::text_call(&self.inner, kwargs_json(selection)?).map_err(|e| to_py(py, e))?;
        let ws = &workspace.inner;
        let out = detached(py, || {
            run_read(&reader, Place::Workspace(ws), &path, &request)
        })?;
        wrap(py, out, &reader)
    }

    /// Reads a file of any kind: text, an image, PDF pages, notebook cells.
    #[pyo3(signature = (path, **request))]
    fn read_document(
        &self,
        py: Python<'_>,
        path: PathBuf,
        request: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        let (reader, request) =
            options::document_call(&self.inner, kwargs_json(request)?).map_err(|e| to_py(py, e))?;
        let out = detached(py, || run_read(&reader, Place::Path, &path, &request))?;
        wrap(py, out, &reader)
    }

    /// `read_document` of a path inside a workspace.
    #[pyo3(signature = (workspace, path, **request))]
    fn read_document_in(
        &self,
        py: Python<'_>,
        workspace: &Workspace,
        path: PathBuf,
        request: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        let (reader, request) =
            options::document_call(&self.inner, kwargs_json(request)?).map_err(|e| to_py(py, e))?;
        let ws = &workspace.inner;
        let out = detached(py, || {
            run_read(&reader, Place::Workspace(ws), &path, &request)
        })?;
        wrap(py, out, &reader)
    }

    /// Classifies the file at `path` by this reader's rules and the call's (`detection`,
    /// `encoding`, `nul_bytes`, `control_bytes`, `invalid_utf8_binary`): a dict with
    /// `verdict` (`text` or `binary`), and `encoding`, `bom_len`, `confidence`, `mime`
    /// for text, `mime` and `reason` for binary.
    #[pyo3(signature = (path, **options))]
    fn classify(
        &self,
        py: Python<'_>,
        path: PathBuf,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        let opts = kwargs_json(options)?;
        let v = detached(py, || options::classify(&self.inner, &path, opts))?;
        json_py(py, &v)
    }

    fn __repr__(&self) -> String {
        "rangeread.Reader(...)".into()
    }
}

/// The Python object of a read's output. A text read's `content` is made a `str` here,
/// once, and the Rust text's buffer goes back to `reader` for its next read (a host
/// reading large files again and again then fills memory that is already there).
fn wrap(py: Python<'_>, mut out: Output, reader: &RustReader) -> PyResult<Py<PyAny>> {
    let text = match &mut out {
        Output::Text(r) => {
            let content = std::mem::take(&mut r.content);
            let text = PyString::new(py, &content).unbind();
            reader.recycle(content);
            Some(text)
        }
        _ => None,
    };
    let held = Held {
        out,
        text,
        json: OnceLock::new(),
    };
    Ok(match held.out {
        Output::Text(_) => Py::new(py, ReadResult { held })?.into_any(),
        Output::Outline(_) => Py::new(py, Outline { held })?.into_any(),
        Output::Document(_) => Py::new(py, DocumentResult { held })?.into_any(),
    })
}

/// A read's output and its JSON, made on first use. A text read's `content` is the
/// `str` made with the result (`text`), not in `out`.
struct Held {
    out: Output,
    text: Option<Py<PyString>>,
    json: OnceLock<Value>,
}

impl Held {
    /// The whole output: a text read's `content` back from its `str`, for what needs
    /// it all (the JSON, a rendering, the exact bytes, the fingerprint's hash).
    fn whole(&self, py: Python<'_>) -> Cow<'_, Output> {
        match (&self.text, &self.out) {
            (Some(text), Output::Text(r)) => {
                let mut r = r.clone();
                r.content = text.bind(py).to_string_lossy().into_owned();
                Cow::Owned(Output::Text(r))
            }
            _ => Cow::Borrowed(&self.out),
        }
    }

    fn json(&self, py: Python<'_>) -> &Value {
        self.json.get_or_init(|| self.whole(py).to_json())
    }

    fn field(&self, py: Python<'_>, name: &str, class: &str) -> PyResult<Py<PyAny>> {
        match self.json(py).get(name) {
            Some(v) => json_py(py, v),
            None => Err(pyo3::exceptions::PyAttributeError::new_err(format!(
                "'{class}' object has no attribute '{name}'"
            ))),
        }
    }
}

/// The shared methods of the result classes: fields as attributes, `to_dict()` (the Rust
/// result's JSON), `render(format)`.
macro_rules! result_methods {
    ($class:ident { $($own:tt)* }) => {
        #[pymethods]
        impl $class {
            $($own)*

            fn __getattr__(&self, py: Python<'_>, name: &str) -> PyResult<Py<PyAny>> {
                self.held.field(py, name, stringify!($class))
            }

            /// The result as a dict equal to the Rust result's JSON.
            fn to_dict(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
                json_py(py, self.held.json(py))
            }

            /// The result rendered: `plain`, `colon`, `cat-n`, `codex`, `markdown`,
            /// `frontmatter` or `json`; `cut_marker` is what follows a cut line
            /// (`{more}`, `{next}`, `{line}`), by default `… [line truncated: {more} more bytes]`.
            #[pyo3(signature = (format = "plain", cut_marker = None))]
            fn render(&self, py: Python<'_>, format: &str, cut_marker: Option<&str>) -> PyResult<String> {
                self.held.whole(py).render_marked(format, cut_marker).map_err(|e| to_py(py, e))
            }

            fn __dir__(&self, py: Python<'_>) -> Vec<String> {
                let mut names: Vec<String> = self
                    .held
                    .json(py)
                    .as_object()
                    .map(|m| m.keys().cloned().collect())
                    .unwrap_or_default();
                names.extend(["to_dict", "render"].map(String::from));
                names
            }

            fn __repr__(&self, py: Python<'_>) -> String {
                let j = self.held.json(py);
                format!(
                    "rangeread.{}(path={}, lines={}, bytes={})",
                    stringify!($class),
                    j.get("path").unwrap_or(&Value::Null),
                    j.get("lines").unwrap_or(&Value::Null),
                    j.get("bytes").unwrap_or(&Value::Null)
                )
            }
        }
    };
}

/// Lines or bytes of a text file.
#[pyclass(frozen, module = "rangeread")]
struct ReadResult {
    held: Held,
}
result_methods!(ReadResult {
    /// The selection's text (UTF-8; U+FFFD where the file's bytes were invalid): the
    /// `str` made with the result.
    #[getter]
    fn content(&self, py: Python<'_>) -> Py<PyString> {
        match &self.held.text {
            Some(text) => text.clone_ref(py),
            None => PyString::new(py, "").unbind(),
        }
    }

    /// The selection as `cat` writes it to a UTF-8 terminal: in a UTF-8 file its exact
    /// bytes (invalid sequences kept where `content` has U+FFFD); in any other encoding,
    /// `content` as UTF-8 (the file's own bytes are `bytes["start"]` to `bytes["end"]`).
    #[getter]
    fn raw_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, self.held.whole(py).raw_bytes().unwrap_or_default())
    }
});

/// The landmarks of a whole file.
#[pyclass(frozen, module = "rangeread")]
struct Outline {
    held: Held,
}
result_methods!(Outline {});

/// A file of any kind: `kind` is `text`, `image`, `pdf` or `notebook`.
#[pyclass(frozen, module = "rangeread")]
struct DocumentResult {
    held: Held,
}
result_methods!(DocumentResult {
    /// The images to send beside the text, in order: `(mime_type, bytes)`.
    #[getter]
    fn images<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let items: Vec<(String, Bound<'py, PyBytes>)> = self
            .held
            .out
            .images()
            .into_iter()
            .map(|(m, b)| (m.to_string(), PyBytes::new(py, b)))
            .collect();
        PyList::new(py, items)
    }
});

/// A root that paths are confined to, with protected patterns.
#[pyclass(frozen, module = "rangeread")]
struct Workspace {
    inner: RustWorkspace,
}

#[pymethods]
impl Workspace {
    #[new]
    #[pyo3(signature = (root, **options))]
    fn new(
        py: Python<'_>,
        root: PathBuf,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Workspace> {
        let opts = kwargs_json(options)?;
        let inner = detached(py, || options::workspace(&root, opts))?;
        Ok(Workspace { inner })
    }

    /// The root, absolute and resolved.
    #[getter]
    fn root(&self) -> PathBuf {
        self.inner.root().to_path_buf()
    }

    /// The protected patterns.
    #[getter]
    fn protect(&self) -> Vec<String> {
        self.inner.patterns().to_vec()
    }

    /// The project's rule files the workspace reads, as dicts.
    #[getter]
    fn rule_files(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let v = serde_json::to_value(self.inner.rule_files()).unwrap_or(Value::Null);
        json_py(py, &v)
    }

    /// The absolute path `path` resolves to inside the root.
    fn resolve(&self, py: Python<'_>, path: PathBuf) -> PyResult<PathBuf> {
        detached(py, || Ok(self.inner.resolve(&path)?))
    }

    /// Whether a path relative to the root matches a protected pattern.
    fn is_protected(&self, path: PathBuf) -> bool {
        self.inner.is_protected(path)
    }

    fn __repr__(&self) -> String {
        format!("rangeread.Workspace({:?})", self.inner.root())
    }
}

/// One agent's read tool: `definition()` to advertise, `respond(args)` to answer.
#[pyclass(frozen, module = "rangeread")]
struct DialectTool {
    inner: RustTool,
}

#[pymethods]
impl DialectTool {
    #[new]
    #[pyo3(signature = (dialect, *, workspace = None, roots = None, **options))]
    fn new(
        py: Python<'_>,
        dialect: &Bound<'_, PyAny>,
        workspace: Option<&Workspace>,
        roots: Option<Vec<PyRef<'_, Workspace>>>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<DialectTool> {
        let spec: Value = depythonize(dialect)?;
        let scope = match (workspace, roots) {
            (Some(_), Some(_)) => {
                return Err(to_py(
                    py,
                    BindError::option("roots", "Give workspace or roots, not both"),
                ))
            }
            (Some(ws), None) => Scope::Workspace(ws.inner.clone()),
            (None, Some(list)) => Scope::Roots(list.iter().map(|w| w.inner.clone()).collect()),
            (None, None) => Scope::Paths,
        };
        let opts = kwargs_json(options)?;
        let inner = options::tool(spec, scope, opts).map_err(|e| to_py(py, e))?;
        Ok(DialectTool { inner })
    }

    /// `{"name", "title", "description", "input_schema"}`, as a host advertises the tool.
    fn definition(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let d = self.inner.definition();
        let v = serde_json::json!({
            "name": d.name, "title": d.title, "description": d.description,
            "input_schema": d.input_schema,
        });
        json_py(py, &v)
    }

    /// The tool's dialect as a dict (change it and give it back to a new tool).
    #[getter]
    fn dialect(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        json_py(
            py,
            &serde_json::to_value(self.inner.dialect()).unwrap_or(Value::Null),
        )
    }

    /// Answers a call: `args` is the call's arguments, a dict or JSON text.
    fn respond(&self, py: Python<'_>, args: &Bound<'_, PyAny>) -> PyResult<ToolResponse> {
        let args: Value = match args.extract::<String>() {
            Ok(text) => Value::String(text),
            Err(_) => depythonize(args)?,
        };
        let json = detached(py, || {
            let r = match args {
                Value::String(text) => self.inner.respond(text.as_str()),
                v => self.inner.respond(v),
            };
            Ok(response_json(&r))
        })?;
        Ok(ToolResponse { json })
    }

    fn __repr__(&self) -> String {
        format!("rangeread.DialectTool({:?})", self.inner.dialect().preset)
    }
}

/// A tool's answer: `text`, `is_error`, `notes`, `structured`, `media`, and `items`, the
/// ordered content to send (text with its notes, images and files).
#[pyclass(frozen, module = "rangeread")]
struct ToolResponse {
    json: Value,
}

#[pymethods]
impl ToolResponse {
    fn __getattr__(&self, py: Python<'_>, name: &str) -> PyResult<Py<PyAny>> {
        match self.json.get(name) {
            Some(v) => json_py(py, v),
            None => Err(pyo3::exceptions::PyAttributeError::new_err(format!(
                "'ToolResponse' object has no attribute '{name}'"
            ))),
        }
    }

    /// The answer's text, as one string (`text`).
    #[getter]
    fn text(&self) -> &str {
        self.json["text"].as_str().unwrap_or_default()
    }

    /// Whether the answer reports an error (MCP's `isError`).
    #[getter]
    fn is_error(&self) -> bool {
        self.json["is_error"].as_bool().unwrap_or(false)
    }

    /// The answer as a dict.
    fn to_dict(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        json_py(py, &self.json)
    }

    fn __repr__(&self) -> String {
        format!(
            "rangeread.ToolResponse(is_error={}, text={:?})",
            self.is_error(),
            self.text().chars().take(60).collect::<String>()
        )
    }
}

/// Classifies the file at `path` (`Reader().classify(path, **options)`): a dict with
/// `verdict` (`text` or `binary`) and what was found.
#[pyfunction]
#[pyo3(signature = (path, **options))]
fn classify(
    py: Python<'_>,
    path: PathBuf,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Py<PyAny>> {
    let opts = kwargs_json(options)?;
    let v = detached(py, || options::classify(&RustReader::new(), &path, opts))?;
    json_py(py, &v)
}

/// The names of the presets (one per tool).
#[pyfunction]
fn presets() -> Vec<&'static str> {
    Dialect::presets()
}

/// The preset `name` as a dict (a dialect to change and give to `DialectTool`).
#[pyfunction]
fn dialect(py: Python<'_>, name: &str) -> PyResult<Py<PyAny>> {
    let v = dialect_json(name).map_err(|e| to_py(py, e))?;
    json_py(py, &v)
}

#[pymodule]
fn _rangeread(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Reader>()?;
    m.add_class::<Workspace>()?;
    m.add_class::<ReadResult>()?;
    m.add_class::<Outline>()?;
    m.add_class::<DocumentResult>()?;
    m.add_class::<DialectTool>()?;
    m.add_class::<ToolResponse>()?;
    m.add_function(wrap_pyfunction!(presets, m)?)?;
    m.add_function(wrap_pyfunction!(classify, m)?)?;
    m.add_function(wrap_pyfunction!(dialect, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
