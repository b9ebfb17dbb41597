//! [`DialectTool`]: one tool of any [`Dialect`] over a reader and a workspace — the one
//! path from a call's JSON to its answer (decode → plan → read → render).

pub(crate) mod caps;
pub(crate) mod checks;
pub(crate) mod ctx;
pub(crate) mod doc_answer;
pub(crate) mod edit;
pub(crate) mod files;
pub(crate) mod notices;
pub(crate) mod refuse;
pub(crate) mod roots;
#[cfg(test)]
mod tests;

use std::path::Path;
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::cache::IndexCache;
use crate::config::{OutlineDetail, Totals};
use crate::error::{int, uint, Error, Result};
use crate::pool::BufferPool;
use crate::read::Reader;

use crate::result::{ByteSpan, ReadResult};
use crate::tool::decode::args::{args_of, param, Args, JsonArgs};
use crate::tool::decode::paths::path_name;
use crate::tool::decode::paths::Place;
use crate::tool::decode::validation;
use crate::tool::decode::{decode, plan, Plan, Request, Way};
use crate::tool::dialect::template::fill;
use crate::tool::dialect::{Dialect, Limits, PastEndAnswer};
use crate::tool::render::record::{AnswerKind, AnswerRecord};
use crate::tool::render::{self, Answer, Body};
use crate::tool::render::{listing, oversize};
use crate::tool::serve::ctx::Ctx;
use crate::tool::serve::roots::{Placed, Roots};
use crate::tool::ToolResponse;
use crate::workspace::{Workspace, WorkspaceRegistry};

/// Where a tool's paths resolve.
#[derive(Debug, Clone)]
enum Scope {
    /// As given (no confinement).
    Paths,
    /// Inside one workspace.
    Workspace(Workspace),
    /// Inside the workspace of the session the call names.
    Sessions(Arc<WorkspaceRegistry>),
    /// Inside the root the path names or lies in (see [`Roots`]).
    Roots(Arc<Roots>),
}

/// A tool's name, title, description and input schema, as a host advertises it.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolDefinition {
    /// The name the model calls.
    pub name: String,
    /// A short human title.
    pub title: String,
    /// What the model reads about the tool.
    pub description: String,
    /// The JSON Schema of the arguments (an object schema).
    pub input_schema: Map<String, Value>,
}

/// A read tool speaking one [`Dialect`]: it decodes the call's arguments by the
/// dialect's parameters, reads through the library, and answers in the dialect's form.
///
/// A [`DialectTool::workspace`] confines the paths and changes nothing else: with one
/// and without one, a file gets the same answer (an image item, a PDF's pages, the
/// dialect's refusal of a binary file). [`DialectTool::respond`] blocks while it reads:
/// it is `Send + Sync` and cheap to clone, and an async host calls it from
/// `tokio::task::spawn_blocking` (docs/embedding.md, "In an async host").
///
/// ```
/// use rangeread::tool::{Dialect, DialectTool};
/// use rangeread::Workspace;
///
/// let tool = DialectTool::new(Dialect::preset("vault")?).workspace(Workspace::new("tests/data")?);
/// let r = tool.respond(r#"{"path": "sample.txt", "start_line": 2, "end_line": 3}"#);
/// assert!(r.full_text().starts_with("2: line 2: the quick")); // or r.items()
/// assert!(!r.is_error);
/// let missing = tool.respond(r#"{"path": "nope.md"}"#);
/// assert_eq!((missing.is_error, missing.text.as_str()), (true, r#"Error: File not found: "nope.md""#));
/// # Ok::<(), rangeread::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct DialectTool {
    dialect: Arc<Dialect>,
    reader: Reader,
    scope: Scope,
}

impl DialectTool {
    /// The tool of `dialect`, reading with the dialect's budgets, paths as given.
    pub fn new(dialect: Dialect) -> DialectTool {
        let l = dialect.limits;
        let totals = match dialect.output.form {
            crate::tool::dialect::Form::ContentAndNotes => Totals::IfKnown,
            _ => Totals::Auto,
        };
        let c = dialect.decoding;
        let reader = Reader::new()
            .max_lines(l.max_lines)
            .max_bytes(l.max_bytes)
            .max_line_chars(l.max_line_chars)
            .line_unit(l.line_unit)
            .detection(c.detection)
            .encoding(c.encoding)
            .nul_bytes(c.nul_bytes)
            .control_bytes(c.control_bytes)
            .invalid_utf8_binary(c.invalid_utf8_binary.or(dialect.files.binary_invalid_utf8))
            .line_endings(c.line_endings)
            .utf8_policy(c.utf8)
            .codec_tables(c.tables)
            .totals(totals);
        DialectTool {
            dialect: Arc::new(dialect),
            reader,
            scope: Scope::Paths,
        }
    }

    /// Reads through `reader` instead: its cache, buffers, scan budget and the other
    /// settings it has. The budgets and text policies the host set on it
    /// ([`Reader::max_lines`], [`Reader::max_bytes`], [`Reader::max_line_chars`],
    /// [`Reader::detection`], [`Reader::utf8_policy`], [`Reader::totals`]) replace the
    /// dialect's; those it did not set stay the dialect's, so that
    /// `.reader(Reader::new().cache(c))` attaches a cache and nothing else.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use rangeread::tool::{Dialect, DialectTool};
    /// use rangeread::{IndexCache, Reader};
    ///
    /// let cache = Arc::new(IndexCache::new(64 << 20));
    /// let codex = DialectTool::new(Dialect::preset("codex")?);
    /// let tool = codex.clone().reader(Reader::new().cache(cache.clone()));
    /// assert_eq!(tool.budgets(), codex.budgets()); // the dialect's: 1 MiB a call
    /// let tool = codex.reader(Reader::new().cache(cache).max_bytes(64 << 10));
    /// assert_eq!(tool.budgets().max_bytes, 64 << 10);
    /// # Ok::<(), rangeread::Error>(())
    /// ```
    pub fn reader(mut self, reader: Reader) -> DialectTool {
        self.reader = reader.over(&self.reader);
        self
    }

    /// Shares `cache` (line indexes, classifications, landmark blocks) across the reads
    /// of this tool and of every other reader that holds it, keeping the dialect's
    /// budgets.
    pub fn cache(mut self, cache: Arc<IndexCache>) -> DialectTool {
        self.reader = self.reader.cache(cache);
        self
    }

    /// Fills answers from `pool`'s buffers ([`Reader::buffers`]), keeping the dialect's
    /// budgets.
    pub fn buffers(mut self, pool: Arc<BufferPool>) -> DialectTool {
        self.reader = self.reader.buffers(pool);
        self
    }

    /// The budgets the tool reads with: the dialect's, or the host's where it set them.
    pub fn budgets(&self) -> Limits {
        let (max_lines, max_bytes, max_line_chars) = self.reader.budgets();
        Limits {
            max_lines,
            max_bytes,
            max_line_chars,
            line_unit: self.reader.counted_line_unit(),
        }
    }

    /// Changes the reader the tool reads through, keeping the dialect's budgets: a
    /// host adds its cache, buffers or scan budget.
    ///
    /// ```
    /// use rangeread::tool::{Dialect, DialectTool};
    ///
    /// let tool = DialectTool::new(Dialect::preset("vault")?).reader_with(|r| r.max_scan_bytes(1 << 30));
    /// # let _ = tool;
    /// # Ok::<(), rangeread::Error>(())
    /// ```
    pub fn reader_with(mut self, f: impl FnOnce(Reader) -> Reader) -> DialectTool {
        self.reader = f(self.reader);
        self
    }

    /// The reader the tool reads through.
    pub fn get_reader(&self) -> &Reader {
        &self.reader
    }

    /// Resolves paths inside `workspace` (confined to its root, protected paths refused;
    /// with [`crate::tool::PathRules::named_roots`], a path may name the root first).
    pub fn workspace(mut self, workspace: Workspace) -> DialectTool {
        let workspace = self.dialect.rules.apply(workspace);
        self.scope = if self.dialect.paths.named_roots {
            // Paths name the root first: one root of several.
            Scope::Roots(Arc::new(Roots::new().root(workspace)))
        } else {
            Scope::Workspace(workspace)
        };
        self
    }

    /// Resolves paths inside the workspace of the session each call names (the
    /// dialect needs a [`crate::tool::Role::Session`] parameter). The registry's
    /// workspaces are used as they are: give each the dialect's rule files when it is
    /// made ([`Workspace::with_rule_files`] with [`crate::tool::ProjectRules::files`]),
    /// as `rangeread-mcp` does.
    pub fn sessions(mut self, sessions: WorkspaceRegistry) -> DialectTool {
        self.scope = Scope::Sessions(Arc::new(sessions));
        self
    }

    /// Resolves paths in several roots (see [`Roots`]): each in the root it names or
    /// lies in (the MCP filesystem server's allowed directories: an absolute path in the
    /// one that holds it, a relative path against each in turn; under
    /// [`crate::tool::Links::Inside`] the real path decides); refusals of protected
    /// paths can name the rule.
    pub fn roots(mut self, roots: Roots) -> DialectTool {
        let roots = roots.map(|ws| self.dialect.rules.apply(ws));
        self.scope = Scope::Roots(Arc::new(roots));
        self
    }

    /// The dialect.
    pub fn dialect(&self) -> &Dialect {
        &self.dialect
    }

    /// The tool's name, description and input schema, built from the dialect.
    pub fn definition(&self) -> ToolDefinition {
        let d = &self.dialect;
        ToolDefinition {
            name: d.name.clone(),
            title: d.title.clone(),
            description: doc_answer::description(d),
            input_schema: crate::tool::dialect::schema::input_schema(d),
        }
    }

    /// Answers a call: its JSON arguments (a value or JSON text) in, the text the tool
    /// sends out; every failure is an answer with `is_error`, in the dialect's words.
    pub fn respond(&self, args: impl JsonArgs) -> ToolResponse {
        let d = &self.dialect;
        let mut place = Place::default();
        let args = args_of(args);
        // The agent's own validator answers before the tool, in its words alone.
        if let Err(e) = args.as_ref().map_or(Ok(()), |a| validation::check(d, a)) {
            return render::rejected(&e);
        }
        match args.and_then(|a| self.call(a, &mut place)) {
            Ok(a) => render::render(d, a),
            Err(e) => render::error(d, &e, &place.explain(d, &e), &self.dirs()),
        }
    }

    /// Decodes, checks, reads: what [`DialectTool::respond`] renders; `place` learns
    /// where the call reads, for the error messages.
    pub(crate) fn call(&self, args: Args, place: &mut Place) -> Result<Answer> {
        let d = &self.dialect;
        let request = decode(d, args)?;
        // Placed once: a path placed before the selection is decoded is read there.
        let placed = if d.paths.before_selection {
            Some(self.place(&request)?)
        } else {
            None
        };
        let plan = plan(d, &request)?;
        if let Some(message) = &d.paths.require_absolute {
            if !Path::new(&request.path).is_absolute() {
                let mut message = fill(message, &[("path", &request.path)]);
                if d.paths.suggest_absolute.is_some() {
                    let workspace = self.place(&request).ok().and_then(|(ws, _)| ws);
                    message += &checks::suggestion(d, workspace.as_ref(), &request.path);
                }
                return Err(param(path_name(d), message));
            }
        }
        crate::tool::decode::paths::refuse_by_name(d, &request.path)?;
        let (workspace, path) = match placed {
            Some(placed) => placed,
            None => self.place(&request)?,
        };
        *place = Place::new(workspace.as_ref(), &path).tail(plan.way == Way::Tail);
        let ctx = Ctx {
            dialect: &self.dialect,
            base: &self.reader,
            workspace: workspace.as_ref(),
            path: &path,
            max_bytes: crate::tool::serve::caps::max_bytes(d, &request),
            opened: std::cell::RefCell::new(None),
        };
        let given = request.path.clone();
        match (&self.scope, &workspace) {
            (Scope::Roots(roots), Some(ws)) => self
                .read_answer(&ctx, plan, request)
                .map_err(|e| roots.refusal(d, e, ws, &path, &given)),
            _ => self.read_answer(&ctx, plan, request),
        }
    }

    /// The workspace a call reads in, and the path inside it.
    fn place(&self, request: &Request) -> Result<(Option<Workspace>, String)> {
        let d = &self.dialect;
        Ok(match &self.scope {
            Scope::Paths => (None, request.path.clone()),
            Scope::Workspace(ws) => {
                located(roots::place(std::slice::from_ref(ws), d, &request.path)?)
            }
            Scope::Sessions(reg) => {
                let id = request.session.as_deref().unwrap_or_default();
                let ws = reg.get(id)?;
                located(roots::place(std::slice::from_ref(&ws), d, &request.path)?)
            }
            Scope::Roots(roots) => located(roots.place(d, &request.path)?),
        })
    }

    /// Reads what the plan selects and checks it against the dialect's caps.
    fn read_answer(&self, ctx: &Ctx, mut plan: Plan, request: Request) -> Result<Answer> {
        let d = &self.dialect;
        if let Some(doc) = crate::tool::serve::doc_answer::read(ctx, &request, &plan)? {
            let record = AnswerRecord::document(&doc);
            let mut a = Answer::of(plan, Body::Document(Box::new(doc)), record);
            a.root = ctx.workspace.map(|w| w.root().to_path_buf());
            a.session = request.session;
            return Ok(a);
        }
        crate::tool::serve::caps::check_size(ctx, &request)?;
        checks::before_read(ctx, &request.path, &plan)?;
        // What the file's name, size or kind answers instead of its lines.
        let instead = |text, record| Ok(Answer::note(plan.clone(), text, record));
        if let Some(text) = files::before(ctx)? {
            return instead(text, AnswerRecord::of(AnswerKind::Note));
        }
        let (result, requested) = match ctx.read(&plan) {
            Ok(r) => r,
            Err(Error::LineBeyondEnd {
                start, total_lines, ..
            }) => {
                return self.past_end(ctx, &plan, uint(start), uint(total_lines));
            }
            Err(Error::IsDirectory { .. }) if d.directory.is_some() => {
                let form = d.directory.as_ref().expect("checked above");
                let (text, listed) =
                    listing::list(form, ctx.workspace, ctx.path, &request.path, d.paths.show)?;
                let record = AnswerRecord::listing(listed.shown, listed.total);
                return Ok(Answer::note(plan, text, record));
            }
            Err(Error::Binary {
                path,
                mime,
                file_size,
            }) => match files::binary_answer(d, ctx.workspace, ctx.path, &mime) {
                Some(text) => {
                    let record = AnswerRecord {
                        file_size: Some(uint(file_size)),
                        ..AnswerRecord::of(AnswerKind::Note)
                    };
                    return instead(text, record);
                }
                None => {
                    return Err(Error::Binary {
                        path,
                        mime,
                        file_size,
                    })
                }
            },
            Err(e) => return Err(e.start_named(&plan.start_name)),
        };
        refuse::check(d, &result, path_name(d), |n| ctx.line(n))?;
        let mut notes = crate::tool::serve::notices::notes(ctx, &result)?;
        let (result, page) = crate::tool::serve::caps::check_read(ctx, &request, result)?;
        if page.is_some() && crate::tool::serve::caps::first_page_from_one(d) {
            plan.number_from_zero = false;
        }
        // A first page is the agent's own cut, its banner says where to go on.
        let host_budget = page.is_none() && result.truncated.is_some_and(|t| !ctx.own_budget(t));
        let host_line_budget = !result.cut_lines.is_empty() && !ctx.own_line_budget();
        let (banner, token_cap) = page.unzip();
        notes.extend(banner);
        if let Some(refusal) = &d.lines.refuse_unranged_over {
            let total = result.total_lines.unwrap_or(0);
            if !plan.ranged() && total > refusal.lines {
                let message = fill(
                    &refusal.message,
                    &[
                        ("path", &request.path),
                        ("total", &total),
                        ("limit", &refusal.lines),
                    ],
                );
                let over = ("lines", total, refusal.lines);
                return Err(caps::too_large(d, &request.path, message, over));
            }
        }
        if let (Some(o), false) = (&d.oversize, plan.ranged()) {
            let landmarks = || Ok(ctx.outline(o.outline_detail)?.landmarks);
            let (size, shown) = (result.file_size, result.resolved_path.as_str());
            if let Some(text) = oversize::answer(o, size, shown, landmarks, |n| ctx.head(n))? {
                let record = AnswerRecord {
                    total_lines: result.total_lines,
                    file_size: Some(size),
                    is_partial: true,
                    ..AnswerRecord::of(AnswerKind::Note)
                };
                return Ok(Answer::note(plan, text, record));
            }
        }
        let outline = match &d.output.outline {
            Some(_) if !plan.ranged() || !result.is_partial => {
                Some(ctx.outline(OutlineDetail::Definitions)?)
            }
            _ => None,
        };
        let mut record = AnswerRecord {
            token_cap,
            host_line_budget,
            ..AnswerRecord::shown(d, &result, host_budget)
        };
        // A clip of the agent's own may have left the cut lines out.
        record.host_line_budget &= !record.cut_lines.is_empty();
        if let Some(n) = plan.default_count {
            record = record.default_cut(n);
        }
        (record.tool_total_lines, record.empty_line) = split_counts(ctx, &plan, &result, &record)?;
        Ok(Answer {
            plan,
            body: Body::Read(Box::new(result)),
            requested,
            outline,
            root: ctx.workspace.map(|w| w.root().to_path_buf()),
            session: request.session,
            notes,
            record,
        })
    }

    /// The allowed directories, for messages.
    fn dirs(&self) -> String {
        match &self.scope {
            Scope::Workspace(ws) => roots::dirs(std::slice::from_ref(ws), &self.dialect),
            Scope::Roots(r) => roots::dirs(r.workspaces(), &self.dialect),
            Scope::Paths | Scope::Sessions(_) => String::new(),
        }
    }

    /// A first line past the end, as the dialect answers it.
    fn past_end(&self, ctx: &Ctx, plan: &Plan, start: u64, total: u64) -> Result<Answer> {
        let d = &self.dialect;
        // Splitting on `\n`, a text ending with one has an empty line after it.
        let split_total = if d.lines.split_lines && total > 0 && ctx.ends_with_lf()? {
            total + 1
        } else if d.lines.split_lines {
            total.max(1)
        } else {
            total
        };
        if d.lines.split_lines && start <= split_total {
            // The empty last line itself: no line of the file's text, at its end.
            let size = ctx.stat()?.0;
            let record = AnswerRecord {
                bytes: Some(ByteSpan {
                    start: size,
                    end: size,
                }),
                total_lines: Some(total),
                tool_total_lines: (split_total != total).then_some(split_total),
                file_size: Some(size),
                empty_line: true,
                ..AnswerRecord::of(AnswerKind::Text)
            };
            return Ok(Answer::of(plan.clone(), Body::EmptyLine(start), record));
        }
        let vals: [(&str, &dyn crate::tool::dialect::template::Value); 3] = [
            ("start", &start),
            ("total", &split_total),
            ("name", &plan.start_name.as_str()),
        ];
        // The library's error, its parameter as the caller spelled it; the renderer words
        // it (a dialect's own message is one of its texts).
        let beyond = |total_lines| Error::LineBeyondEnd {
            start: int(start),
            total_lines: int(total_lines),
            parameter: plan.start_name.clone(),
        };
        // The file's lines as the library counts them, whatever the text says.
        let record = AnswerRecord::past_end(start, total);
        match &d.lines.past_end {
            PastEndAnswer::Error => Err(beyond(total)),
            PastEndAnswer::Message(_) => Err(beyond(split_total)),
            PastEndAnswer::Note(t) => {
                let text = fill(t, &vals) + &crate::tool::serve::notices::unread(ctx)?;
                Ok(Answer::note(plan.clone(), text, record))
            }
            PastEndAnswer::Empty => Ok(Answer::note(plan.clone(), String::new(), record)),
            PastEndAnswer::EmptyPage => {
                let after = split_total + 1;
                let text = d
                    .output
                    .partial_header
                    .as_deref()
                    .map_or_else(String::new, |h| {
                        fill(
                            h,
                            &[
                                ("start", &after),
                                ("end", &split_total),
                                ("total", &split_total),
                                ("next", &after),
                            ],
                        )
                    });
                Ok(Answer::note(plan.clone(), text, record))
            }
        }
    }
}

/// How a tool that splits the text on `\n` counts a read of a file that ends with one
/// ([`AnswerRecord::tool_total_lines`]), and whether its text shows the empty line after
/// that line feed ([`AnswerRecord::empty_line`]): the read reached the end of the file,
/// the selection reaches the line, and the text still ends there (a head clip ends it
/// with its notice).
fn split_counts(
    ctx: &Ctx,
    plan: &Plan,
    r: &ReadResult,
    record: &AnswerRecord,
) -> Result<(Option<u64>, bool)> {
    let (d, o) = (ctx.dialect, &ctx.dialect.output);
    // Only a partial header and a truncation note say the count (the tool's own, which
    // its `tail` counts from).
    let final_line_feed = d.lines.split_lines
        && (o.partial_header.is_some() || r.truncated.is_some())
        && if r.bytes.end == r.file_size {
            r.content.ends_with('\n')
        } else {
            ctx.ends_with_lf()?
        };
    let tool_total = r.total_lines.filter(|_| final_line_feed).map(|t| t + 1);
    let split = d.lines.split_lines || (d.lines.split_whole && !plan.ranged());
    let template = if plan.numbered {
        &o.line
    } else {
        &o.unnumbered_line
    };
    let bytes = matches!(plan.selection, crate::select::Selection::Bytes(_));
    let numbered = template.is_some() && (!bytes || o.number_bytes);
    let at_end = r.bytes.end == r.file_size && r.truncated.is_none();
    let text_ends = record.clipped.is_none_or(|c| c.middle);
    if !(split && numbered && at_end && text_ends && r.content.ends_with('\n')) {
        return Ok((tool_total, false));
    }
    // The number the empty line has in the text, against the last line asked for.
    let shown = r.lines.map_or(0, |l| l.end + 1 - l.start);
    let n = match (plan.number_from_zero, r.lines) {
        (true, _) => Some(shown),
        (false, l) => l.map(|l| l.end + 1),
    };
    let end = crate::tool::decode::bounds(&plan.selection).and_then(|b| b.1);
    Ok((tool_total, n.zip(end).is_none_or(|(n, e)| n <= e)))
}

/// A placed root and path, as the call reads them.
fn located(p: Placed) -> (Option<Workspace>, String) {
    (Some(p.workspace.clone()), p.path)
}
