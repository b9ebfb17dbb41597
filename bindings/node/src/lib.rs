//! `rangeread` for Node: the library's `Reader`, `Workspace` and `DialectTool` as
//! JavaScript classes, over `rangeread-bindings` (the options, results and errors every
//! binding shares). No reading logic lives here: each call converts its arguments, runs
//! the library (on libuv's thread pool for the `...Async` forms), and converts the
//! answer. A text read's result is a `ReadResult` object over the Rust result (its fields
//! made when read); outlines, documents and tool answers are the Rust results' JSON;
//! errors are `Error`s whose `code` is the crate's `ErrorKind` name (and `parameter` the
//! option at fault, when one is).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use napi::bindgen_prelude::{
    AsyncTask, Buffer, ClassInstance, FnArgs, FromNapiValue, Function, JsObjectValue, JsValue,
    Object, ToNapiValue, Unknown,
};
use napi::{Env, Property, PropertyAttributes, ScopedTask, Status};
use napi_derive::napi;
use rangeread_bindings::rangeread::tool::{Dialect, DialectTool as RustTool};
use rangeread_bindings::rangeread::{Reader as RustReader, Workspace as RustWorkspace};
use rangeread_bindings::{
    dialect_json, guard, options, read as run_read, response_json, BindError, Output, Place,
    Request, Scope,
};
use serde_json::{json, Value};

mod fast;
mod result;

use result::render_text;

/// `e` as the JavaScript `Error` to throw: `message`, `code` (the kind), when the error
/// names them `parameter` and `path`, and `data`, its values in camelCase
/// (`data.totalLines`), as lightningcss's errors carry theirs.
pub(crate) fn js_error(env: &Env, e: BindError) -> napi::Error {
    let made = (|| -> napi::Result<napi::Error> {
        let mut obj = env.create_error(napi::Error::new(Status::GenericFailure, &e.message))?;
        obj.set_named_property("code", e.kind.as_str())?;
        if let Some(p) = &e.parameter {
            obj.set_named_property("parameter", p.as_str())?;
        }
        if let Some(p) = &e.path {
            obj.set_named_property("path", p.as_str())?;
        }
        obj.set_named_property("data", env.to_js_value(&e.values_camel())?)?;
        Ok(napi::Error::from(obj.to_unknown()))
    })();
    made.unwrap_or_else(|failed| {
        napi::Error::new(
            Status::GenericFailure,
            format!("{} (and {failed})", e.message),
        )
    })
}

/// A result as JavaScript objects: its JSON text (made off the event loop for the Promise
/// forms) through V8's own `JSON.parse`, which builds objects faster than property-by-
/// property calls, and gives what `JSON.parse` of the Rust result's JSON gives (an
/// integer above 2^53, such as `fingerprint.modified_ns`, is the nearest double).
fn parse<'e>(env: &'e Env, text: String) -> napi::Result<Unknown<'e>> {
    let json: Object<'_> = env.get_global()?.get_named_property("JSON")?;
    let parse: Function<'_, String, Unknown<'_>> = json.get_named_property("parse")?;
    parse.call(text)
}

/// The JSON text of a read's result.
fn json_text(out: &Output) -> String {
    let text = match out {
        Output::Text(r) => serde_json::to_string(r),
        Output::Outline(o) => serde_json::to_string(o),
        Output::Document(d) => serde_json::to_string(d),
    };
    text.expect("the library's results serialize")
}

/// Options as the shared layer takes them: `undefined` is no options.
fn opts(v: Option<Value>) -> Value {
    v.unwrap_or(Value::Null)
}

/// Reads files: budgets and policies as options (`{maxLines: 0}`: no limit).
#[napi]
pub struct Reader {
    inner: Arc<RustReader>,
}

/// What a read task hands back: the result's JSON, or the selection's exact bytes.
#[derive(Clone, Copy)]
enum Give {
    Json,
    Raw,
}

/// One read, run on libuv's thread pool; errors in its options reject the Promise too.
pub struct ReadTask {
    reader: Arc<RustReader>,
    workspace: Option<Arc<RustWorkspace>>,
    path: PathBuf,
    request: Result<Request, BindError>,
    give: Give,
}

/// What a read gives a caller, made off the event loop: a text read's result, JSON
/// text, bytes, or a document's JSON text with its images.
pub enum Given {
    /// A text read's result, and the reader whose pool takes its text's buffer back.
    Text(
        Box<rangeread_bindings::rangeread::ReadResult>,
        Arc<RustReader>,
    ),
    Json(String),
    Raw(Vec<u8>),
    Document(String, Vec<(String, Vec<u8>)>),
}

impl ReadTask {
    fn run(&self) -> Result<Given, BindError> {
        let request = self.request.clone()?;
        let give = self.give;
        guard(|| {
            let place = match &self.workspace {
                Some(ws) => Place::Workspace(ws),
                None => Place::Path,
            };
            let out = run_read(&self.reader, place, &self.path, &request)?;
            if let (Give::Json, Output::Text(_)) = (give, &out) {
                let Output::Text(r) = out else { unreachable!() };
                return Ok(Given::Text(Box::new(r), Arc::clone(&self.reader)));
            }
            Ok(match (give, &out) {
                (Give::Raw, _) => Given::Raw(raw(&out)?.to_vec()),
                (Give::Json, Output::Document(_)) => {
                    let images = out.images().into_iter();
                    let images = images.map(|(m, b)| (m.to_string(), b.to_vec())).collect();
                    Given::Document(json_text(&out), images)
                }
                (Give::Json, _) => Given::Json(json_text(&out)),
            })
        })
    }
}

/// The exact bytes of a text read.
fn raw(out: &Output) -> Result<&[u8], BindError> {
    out.raw_bytes().ok_or_else(|| {
        BindError::option(
            "outline",
            "Raw bytes are the bytes of lines or a byte range of a text file: an outline has none",
        )
    })
}

/// A read's answer as JavaScript values: the JSON as objects, bytes as a `Buffer`; a
/// document's images as its `images` property (`[{mime_type, data}]`, not enumerable:
/// the object's keys stay the Rust result's JSON).
fn given_js(env: &Env, given: Result<Given, BindError>) -> napi::Result<Unknown<'_>> {
    match given.map_err(|e| js_error(env, e))? {
        Given::Text(r, reader) => result::object(env, *r, &reader),
        Given::Json(text) => parse(env, text),
        Given::Raw(b) => Buffer::from(b).into_unknown(env),
        Given::Document(text, images) => {
            let value = parse(env, text)?;
            let mut obj = value.coerce_to_object()?;
            let mut list = env.create_array(images.len() as u32)?;
            for (i, (mime, data)) in images.into_iter().enumerate() {
                let mut item = Object::new(env)?;
                item.set_named_property("mime_type", mime)?;
                item.set_named_property("data", Buffer::from(data))?;
                list.set(i as u32, item)?;
            }
            obj.define_properties(&[Property::new()
                .with_utf8_name("images")?
                .with_napi_value(env, list)?
                .with_property_attributes(
                    PropertyAttributes::Writable | PropertyAttributes::Configurable,
                )])?;
            Ok(value)
        }
    }
}

impl<'t> ScopedTask<'t> for ReadTask {
    type Output = Result<Given, BindError>;
    type JsValue = Unknown<'t>;

    fn compute(&mut self) -> napi::Result<Self::Output> {
        Ok(self.run())
    }

    fn resolve(&mut self, env: &'t Env, output: Self::Output) -> napi::Result<Unknown<'t>> {
        given_js(env, output)
    }
}

impl ReadTask {
    /// The path the read opens, as the caller gave it.
    fn path(&self) -> &Path {
        &self.path
    }

    /// A read of `path` by `reader`, or by the reader the call's options made.
    fn new(
        reader: &Arc<RustReader>,
        workspace: Option<&Workspace>,
        path: String,
        call: Result<(Arc<RustReader>, Request), BindError>,
        give: Give,
    ) -> ReadTask {
        let (reader, request) = match call {
            Ok((r, req)) => (r, Ok(req)),
            Err(e) => (Arc::clone(reader), Err(e)),
        };
        ReadTask {
            reader,
            workspace: workspace.map(|w| Arc::clone(&w.inner)),
            path: PathBuf::from(path),
            request,
            give,
        }
    }
}

/// A text read's reader and request. The call's own budgets and policies make a reader
/// of its own; a call without options reads with `reader`.
fn text_call(
    reader: &Arc<RustReader>,
    selection: Option<Value>,
) -> Result<(Arc<RustReader>, Request), BindError> {
    match selection {
        // The whole file, as `request` answers no options: no parse of them at all.
        None => Ok((Arc::clone(reader), Request::Text(Default::default()))),
        Some(s) => options::text_call(reader, s).map(|(r, q)| (Arc::new(r), q)),
    }
}

impl Reader {
    fn task(
        &self,
        workspace: Option<&Workspace>,
        path: String,
        call: Result<(Arc<RustReader>, Request), BindError>,
        give: Give,
    ) -> ReadTask {
        ReadTask::new(&self.inner, workspace, path, call, give)
    }

    /// A text read's reader and request (see [`text_call`]).
    fn text_call(&self, selection: Option<Value>) -> Result<(Arc<RustReader>, Request), BindError> {
        text_call(&self.inner, selection)
    }

    /// A document read's reader and request (as [`text_call`]).
    fn document_call(
        &self,
        request: Option<Value>,
    ) -> Result<(Arc<RustReader>, Request), BindError> {
        options::document_call(&self.inner, opts(request)).map(|(r, q)| (Arc::new(r), q))
    }

    fn now<'e>(&self, env: &'e Env, task: ReadTask) -> napi::Result<Unknown<'e>> {
        given_js(env, task.run())
    }
}

#[napi]
impl Reader {
    /// A reader with budgets and policies (`maxLines`, `maxBytes`, `maxLineChars`,
    /// `strictUtf8`, `detection`, `totals`, `summaries`, `maxLandmarks`, `threads`,
    /// `cacheBytes`, `indexDir` ...); by default 2,000 lines and 100 KiB a read.
    #[napi(constructor, ts_args_type = "options?: ReaderOptions")]
    pub fn new(env: Env, options: Option<Value>) -> napi::Result<Self> {
        let inner = guard(|| options::reader(opts(options))).map_err(|e| js_error(&env, e))?;
        Ok(Reader {
            inner: Arc::new(inner),
        })
    }

    /// The reader as the handle `read` passes to its native part (see `fast.rs`); taken
    /// off the prototype when the module loads.
    #[napi(skip_typescript, js_name = "_handle")]
    pub fn handle<'e>(&self, env: &'e Env) -> napi::Result<Unknown<'e>> {
        let value = fast::handle(env, &self.inner)?;
        // SAFETY: `value` was made in `env` just now.
        unsafe { Unknown::from_napi_value(env.raw(), value) }
    }

    /// Reads a selection of a text file (or its outline with `{outline: true}`).
    // The JavaScript method is `fast.rs`'s, whose `readWith` does what this does.
    #[napi(
        ts_generic_types = "S extends Selection = Selection",
        ts_args_type = "path: string, selection?: S",
        ts_return_type = "S extends { outline: true } ? Outline : ReadResult"
    )]
    pub fn read<'e>(
        &self,
        env: &'e Env,
        path: String,
        selection: Option<Value>,
    ) -> napi::Result<Unknown<'e>> {
        let request = self.text_call(selection);
        self.now(env, self.task(None, path, request, Give::Json))
    }

    /// `read` off the event loop.
    #[napi(
        ts_generic_types = "S extends Selection = Selection",
        ts_args_type = "path: string, selection?: S",
        ts_return_type = "Promise<S extends { outline: true } ? Outline : ReadResult>"
    )]
    pub fn read_async(&self, path: String, selection: Option<Value>) -> AsyncTask<ReadTask> {
        let request = self.text_call(selection);
        AsyncTask::new(self.task(None, path, request, Give::Json))
    }

    /// `read` of a path inside a workspace (confined; protected paths refused).
    #[napi(
        ts_generic_types = "S extends Selection = Selection",
        ts_args_type = "workspace: Workspace, path: string, selection?: S",
        ts_return_type = "S extends { outline: true } ? Outline : ReadResult"
    )]
    pub fn read_in<'e>(
        &self,
        env: &'e Env,
        workspace: &Workspace,
        path: String,
        selection: Option<Value>,
    ) -> napi::Result<Unknown<'e>> {
        let request = self.text_call(selection);
        self.now(env, self.task(Some(workspace), path, request, Give::Json))
    }

    /// `readIn` off the event loop.
    #[napi(
        ts_generic_types = "S extends Selection = Selection",
        ts_args_type = "workspace: Workspace, path: string, selection?: S",
        ts_return_type = "Promise<S extends { outline: true } ? Outline : ReadResult>"
    )]
    pub fn read_in_async(
        &self,
        workspace: &Workspace,
        path: String,
        selection: Option<Value>,
    ) -> AsyncTask<ReadTask> {
        let request = self.text_call(selection);
        AsyncTask::new(self.task(Some(workspace), path, request, Give::Json))
    }

    /// A selection of a text file as `cat` writes it to a UTF-8 terminal: in a UTF-8 file
    /// its exact bytes (invalid sequences kept where `content` has U+FFFD); in any other
    /// encoding, `content` as UTF-8 (the file's bytes are `bytes.start` to `bytes.end`).
    #[napi(
        ts_args_type = "path: string, selection?: Selection",
        ts_return_type = "Buffer"
    )]
    pub fn read_raw<'e>(
        &self,
        env: &'e Env,
        path: String,
        selection: Option<Value>,
    ) -> napi::Result<Unknown<'e>> {
        let request = self.text_call(selection);
        self.now(env, self.task(None, path, request, Give::Raw))
    }

    /// `readRaw` off the event loop.
    #[napi(
        ts_args_type = "path: string, selection?: Selection",
        ts_return_type = "Promise<Buffer>"
    )]
    pub fn read_raw_async(&self, path: String, selection: Option<Value>) -> AsyncTask<ReadTask> {
        let request = self.text_call(selection);
        AsyncTask::new(self.task(None, path, request, Give::Raw))
    }

    /// `readRaw` of a path inside a workspace.
    #[napi(
        ts_args_type = "workspace: Workspace, path: string, selection?: Selection",
        ts_return_type = "Buffer"
    )]
    pub fn read_raw_in<'e>(
        &self,
        env: &'e Env,
        workspace: &Workspace,
        path: String,
        selection: Option<Value>,
    ) -> napi::Result<Unknown<'e>> {
        let request = self.text_call(selection);
        self.now(env, self.task(Some(workspace), path, request, Give::Raw))
    }

    /// `readRawIn` off the event loop.
    #[napi(
        ts_args_type = "workspace: Workspace, path: string, selection?: Selection",
        ts_return_type = "Promise<Buffer>"
    )]
    pub fn read_raw_in_async(
        &self,
        workspace: &Workspace,
        path: String,
        selection: Option<Value>,
    ) -> AsyncTask<ReadTask> {
        let request = self.text_call(selection);
        AsyncTask::new(self.task(Some(workspace), path, request, Give::Raw))
    }

    /// Reads a file of any kind: text, an image, PDF pages, notebook cells.
    #[napi(
        ts_args_type = "path: string, request?: DocumentRequest",
        ts_return_type = "DocumentRead"
    )]
    pub fn read_document<'e>(
        &self,
        env: &'e Env,
        path: String,
        request: Option<Value>,
    ) -> napi::Result<Unknown<'e>> {
        let request = self.document_call(request);
        self.now(env, self.task(None, path, request, Give::Json))
    }

    /// `readDocument` off the event loop.
    #[napi(
        ts_args_type = "path: string, request?: DocumentRequest",
        ts_return_type = "Promise<DocumentRead>"
    )]
    pub fn read_document_async(&self, path: String, request: Option<Value>) -> AsyncTask<ReadTask> {
        let request = self.document_call(request);
        AsyncTask::new(self.task(None, path, request, Give::Json))
    }

    /// `readDocument` of a path inside a workspace.
    #[napi(
        ts_args_type = "workspace: Workspace, path: string, request?: DocumentRequest",
        ts_return_type = "DocumentRead"
    )]
    pub fn read_document_in<'e>(
        &self,
        env: &'e Env,
        workspace: &Workspace,
        path: String,
        request: Option<Value>,
    ) -> napi::Result<Unknown<'e>> {
        let request = self.document_call(request);
        self.now(env, self.task(Some(workspace), path, request, Give::Json))
    }

    /// `readDocumentIn` off the event loop.
    #[napi(
        ts_args_type = "workspace: Workspace, path: string, request?: DocumentRequest",
        ts_return_type = "Promise<DocumentRead>"
    )]
    pub fn read_document_in_async(
        &self,
        workspace: &Workspace,
        path: String,
        request: Option<Value>,
    ) -> AsyncTask<ReadTask> {
        let request = self.document_call(request);
        AsyncTask::new(self.task(Some(workspace), path, request, Give::Json))
    }

    /// Classifies the file at `path` by this reader's rules and the call's
    /// (`detection`, `encoding`, `nulBytes`, `controlBytes`, `invalidUtf8Binary`).
    #[napi(
        ts_args_type = "path: string, options?: ClassifyOptions",
        ts_return_type = "Classification"
    )]
    pub fn classify(&self, env: Env, path: String, options: Option<Value>) -> napi::Result<Value> {
        guard(|| options::classify(&self.inner, Path::new(&path), opts(options)))
            .map_err(|e| js_error(&env, e))
    }
}

/// A root that paths are confined to, with protected patterns.
#[napi]
pub struct Workspace {
    inner: Arc<RustWorkspace>,
}

#[napi]
impl Workspace {
    /// A workspace over `root` (a directory): `protect` lists gitignore-style patterns
    /// to refuse, `caseInsensitive` matches them ignoring case and NFC/NFD spelling,
    /// `ruleFiles` names the project's rule files to honour (a path of a gitignore-syntax
    /// file, or a `RuleFile` object as a preset's `rules.files` lists them).
    #[napi(constructor, ts_args_type = "root: string, options?: WorkspaceOptions")]
    pub fn new(env: Env, root: String, options: Option<Value>) -> napi::Result<Self> {
        let root = PathBuf::from(root);
        let inner =
            guard(|| options::workspace(&root, opts(options))).map_err(|e| js_error(&env, e))?;
        Ok(Workspace {
            inner: Arc::new(inner),
        })
    }

    /// The root, absolute and resolved.
    #[napi(getter)]
    pub fn root(&self) -> String {
        self.inner.root().to_string_lossy().into_owned()
    }

    /// The protected patterns.
    #[napi(getter)]
    pub fn protect(&self) -> Vec<String> {
        self.inner.patterns().to_vec()
    }

    /// The project's rule files the workspace reads (as `ruleFiles` took them, each as
    /// an object).
    #[napi(getter, ts_return_type = "RuleFile[]")]
    pub fn rule_files(&self) -> Value {
        serde_json::to_value(self.inner.rule_files()).unwrap_or(Value::Null)
    }

    /// The absolute path `path` resolves to inside the root (an `Error` with code
    /// `outside_workspace` or `protected` otherwise).
    #[napi]
    pub fn resolve(&self, env: Env, path: String) -> napi::Result<String> {
        guard(|| Ok(self.inner.resolve(PathBuf::from(&path))?))
            .map(|p| p.to_string_lossy().into_owned())
            .map_err(|e| js_error(&env, e))
    }

    /// Whether a path relative to the root matches a protected pattern.
    #[napi]
    pub fn is_protected(&self, env: Env, path: String) -> napi::Result<bool> {
        guard(|| Ok(self.inner.is_protected(PathBuf::from(&path)))).map_err(|e| js_error(&env, e))
    }
}

/// One agent's read tool: `definition()` to advertise, `respond(args)` to answer.
#[napi]
pub struct DialectTool {
    inner: Arc<RustTool>,
}

/// One call of a tool, run on libuv's thread pool.
pub struct RespondTask {
    tool: Arc<RustTool>,
    args: Value,
}

/// A call's arguments: an object, or JSON text. The answer as JSON text.
fn respond(tool: &RustTool, args: Value) -> Result<String, BindError> {
    guard(|| {
        let r = match args {
            Value::String(text) => tool.respond(text.as_str()),
            v => tool.respond(v),
        };
        Ok(response_json(&r).to_string())
    })
}

impl<'t> ScopedTask<'t> for RespondTask {
    type Output = Result<String, BindError>;
    type JsValue = Unknown<'t>;

    fn compute(&mut self) -> napi::Result<Self::Output> {
        Ok(respond(&self.tool, std::mem::take(&mut self.args)))
    }

    fn resolve(&mut self, env: &'t Env, output: Self::Output) -> napi::Result<Unknown<'t>> {
        parse(env, output.map_err(|e| js_error(env, e))?)
    }
}

/// The scope a tool's options name: `workspace`, or `roots`, or neither; the rest of
/// the options as JSON.
fn tool_scope(options: Option<Object<'_>>) -> napi::Result<Result<(Scope, Value), BindError>> {
    let Some(obj) = options else {
        return Ok(Ok((Scope::Paths, Value::Null)));
    };
    let mut rest = serde_json::Map::new();
    let mut workspace = None;
    let mut roots = None;
    for key in Object::keys(&obj)? {
        match key.as_str() {
            "workspace" => {
                let w: Option<ClassInstance<Workspace>> = obj.get("workspace")?;
                workspace = w.map(|w| (*w.inner).clone());
            }
            "roots" => {
                let list: Option<Vec<ClassInstance<Workspace>>> = obj.get("roots")?;
                roots = list.map(|l| l.iter().map(|w| (*w.inner).clone()).collect());
            }
            _ => {
                let v: Option<Value> = obj.get(&key)?;
                rest.insert(key, v.unwrap_or(Value::Null));
            }
        }
    }
    let scope = match (workspace, roots) {
        (Some(_), Some(_)) => {
            return Ok(Err(BindError::option(
                "roots",
                "Give workspace or roots, not both",
            )))
        }
        (Some(ws), None) => Scope::Workspace(ws),
        (None, Some(list)) => Scope::Roots(list),
        (None, None) => Scope::Paths,
    };
    Ok(Ok((scope, Value::Object(rest))))
}

#[napi]
impl DialectTool {
    /// The tool of a preset (`'codex'`, `'gemini'`, ... see `presets()`) or of a dialect
    /// object (a preset's `dialect(name)` changed), over a `workspace`, several `roots`,
    /// or paths as given.
    #[napi(
        constructor,
        ts_args_type = "dialect: string | Dialect, options?: DialectToolOptions"
    )]
    pub fn new(env: Env, dialect: Value, options: Option<Object<'_>>) -> napi::Result<Self> {
        let made = tool_scope(options)?
            .and_then(|(scope, rest)| guard(|| options::tool(dialect, scope, rest)));
        let inner = made.map_err(|e| js_error(&env, e))?;
        Ok(DialectTool {
            inner: Arc::new(inner),
        })
    }

    /// `{name, title, description, input_schema}`, as a host advertises the tool.
    #[napi(ts_return_type = "ToolDefinition")]
    pub fn definition(&self, env: Env) -> napi::Result<Value> {
        guard(|| {
            let d = self.inner.definition();
            Ok(json!({
                "name": d.name, "title": d.title, "description": d.description,
                "input_schema": d.input_schema,
            }))
        })
        .map_err(|e| js_error(&env, e))
    }

    /// The tool's dialect as an object (change it and give it to a new tool).
    #[napi(getter, ts_return_type = "Dialect")]
    pub fn dialect(&self, env: Env) -> napi::Result<Value> {
        guard(|| Ok(serde_json::to_value(self.inner.dialect()).unwrap_or(Value::Null)))
            .map_err(|e| js_error(&env, e))
    }

    /// Answers a call: `args` is the call's arguments, an object or JSON text. Every
    /// failure of the call is an answer with `is_error`, in the dialect's words.
    #[napi(
        ts_args_type = "args: Record<string, unknown> | string",
        ts_return_type = "ToolResponse"
    )]
    pub fn respond<'e>(&self, env: &'e Env, args: Value) -> napi::Result<Unknown<'e>> {
        parse(
            env,
            respond(&self.inner, args).map_err(|e| js_error(env, e))?,
        )
    }

    /// `respond` off the event loop.
    #[napi(
        ts_args_type = "args: Record<string, unknown> | string",
        ts_return_type = "Promise<ToolResponse>"
    )]
    pub fn respond_async(&self, args: Value) -> AsyncTask<RespondTask> {
        AsyncTask::new(RespondTask {
            tool: Arc::clone(&self.inner),
            args,
        })
    }
}

/// A result rendered as text for a model: `plain` (the content alone), `colon`, `cat-n`,
/// `codex`, `markdown`, `frontmatter` or `json`, with the notes (what was left out, where
/// to continue) as the contract words them. Takes a `ReadResult` (or its `toJSON()`), an
/// `Outline`, or a text `DocumentRead`, as a read returned it; `cutMarker` is what
/// follows a cut line (`{more}`, `{next}`, `{line}`).
#[napi(
    ts_args_type = "result: ReadResult | ReadResultJson | Outline | DocumentRead, format?: Format, cutMarker?: string"
)]
pub fn render(
    env: Env,
    result: Unknown<'_>,
    format: Option<String>,
    cut_marker: Option<String>,
) -> napi::Result<String> {
    let format = format.unwrap_or_else(|| "plain".into());
    if let Some(whole) = result::exact(&env, &result) {
        return render_text(&whole, &format, cut_marker.as_deref()).map_err(|e| js_error(&env, e));
    }
    if result::is_result(&env, &result)? {
        // A `ReadResult`: its own `render`, which knows what it keeps.
        // SAFETY: `result` is a value of this env, an object (a class instance).
        let this = unsafe { Object::from_napi_value(env.raw(), result.raw())? };
        let method: Function<FnArgs<(String, Option<String>)>, String> =
            this.get_named_property("render")?;
        return method.apply(this, (format, cut_marker).into());
    }
    // SAFETY: `result` is a value of this env.
    let result: Value = unsafe { FromNapiValue::from_napi_value(env.raw(), result.raw())? };
    let mut result = integral(result);
    // `modified_ns` comes back as the string a `ReadResult` gives.
    if let Some(ns) = result.pointer_mut("/fingerprint/modified_ns") {
        if let Some(n) = ns.as_str().and_then(|s| s.parse::<u64>().ok()) {
            *ns = Value::from(n);
        }
    }
    guard(|| {
        let out = if result.get("landmarks").is_some() && result.get("content").is_none() {
            serde_json::from_value(result).map(Output::Outline)
        } else {
            serde_json::from_value(result).map(Output::Text)
        };
        let out = out.map_err(|e| {
            BindError::option(
                "result",
                format!("render takes a ReadResult, an Outline or a text document as a read returned it: {e}"),
            )
        })?;
        out.render_marked(&format, cut_marker.as_deref())
    })
    .map_err(|e| js_error(&env, e))
}

/// `value` with its whole numbers as integers: JavaScript has only doubles, and a large
/// count (`fingerprint.modified_ns`) arrives as one.
fn integral(value: Value) -> Value {
    match value {
        Value::Number(n) => match n.as_f64() {
            Some(f) if n.is_f64() && f.fract() == 0.0 && f >= 0.0 && f < u64::MAX as f64 => {
                Value::from(f as u64)
            }
            Some(f) if n.is_f64() && f.fract() == 0.0 && f < 0.0 && f > i64::MIN as f64 => {
                Value::from(f as i64)
            }
            _ => Value::Number(n),
        },
        Value::Array(a) => Value::Array(a.into_iter().map(integral).collect()),
        Value::Object(m) => Value::Object(m.into_iter().map(|(k, v)| (k, integral(v))).collect()),
        other => other,
    }
}

/// Classifies the file at `path` (`new Reader().classify(path, options)`):
/// `{verdict: 'text', encoding, bom_len, confidence, mime}` or
/// `{verdict: 'binary', mime, reason}`.
#[napi(
    ts_args_type = "path: string, options?: ClassifyOptions",
    ts_return_type = "Classification"
)]
pub fn classify(env: Env, path: String, options: Option<Value>) -> napi::Result<Value> {
    guard(|| options::classify(&RustReader::new(), Path::new(&path), opts(options)))
        .map_err(|e| js_error(&env, e))
}

/// The names of the presets (one per tool: `'claude-code'`, `'codex'`, `'gemini'` ...).
#[napi]
pub fn presets() -> Vec<String> {
    Dialect::presets().into_iter().map(String::from).collect()
}

/// The preset `name` as an object: a dialect to change and give to `DialectTool`.
#[napi(ts_return_type = "Dialect")]
pub fn dialect(env: Env, name: String) -> napi::Result<Value> {
    guard(|| dialect_json(&name)).map_err(|e| js_error(&env, e))
}
