//! One streaming pass over a notebook's JSON (serde_json on the source step's reader):
//! the cells a read asks for are kept whole, every other cell only as far as the outline
//! needs (its type and source; its outputs are skipped without being held), so memory
//! follows the cells returned, not the file. The bytes of any one cell are bounded, to
//! within the 64 KiB the parser reads ahead
//! ([`super::NotebookOptions::max_cell_bytes`]): a longer cell stops the parse with an
//! error that names it.

use std::cell::Cell as Shared;
use std::fmt;
use std::io::{self, Read};
use std::rc::Rc;

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::Value;

use crate::stream::SourceStream;

use super::CellSelection;

/// A cell as parsed: the raw material of a [`super::Cell`].
#[derive(Debug, Default)]
pub(super) struct RawCell {
    pub index: u64,
    pub id: Option<String>,
    pub cell_type: String,
    pub execution_count: Option<i64>,
    pub source: String,
    /// The outputs, when the cell is selected.
    pub outputs: Vec<Value>,
    /// Whether the cell is one the read returns.
    pub selected: bool,
}

/// What a pass collects.
#[derive(Debug, Default)]
pub(super) struct Collected {
    /// The selected cells, in order, with outputs.
    pub cells: Vec<RawCell>,
    /// Every cell's index, type and source (for the outline), while `outline_budget`
    /// lasts.
    pub sources: Vec<(u64, String, String)>,
    /// Whether `sources` holds every cell.
    pub sources_complete: bool,
    pub cell_count: u64,
    pub language: Option<String>,
    pub nbformat: Option<u64>,
    pub nbformat_minor: Option<u64>,
    /// Whether the top level was a v3 notebook (`worksheets`).
    pub worksheets: bool,
}

/// The reader serde_json pulls from: the source stream, counting what it hands out and
/// refusing to go past the end of the current cell's allowance.
pub(super) struct Counted<'a> {
    pub inner: SourceStream<'a>,
    pub state: Rc<State>,
}

/// Shared between the reader and the visitors.
#[derive(Debug)]
pub(super) struct State {
    /// Bytes handed to the parser so far.
    pub pos: Shared<u64>,
    /// Reads past this offset fail (the current cell is too long).
    pub stop: Shared<u64>,
    /// The index of the cell whose allowance ran out.
    pub over: Shared<Option<u64>>,
}

impl Read for Counted<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let pos = self.state.pos.get();
        let room = self.state.stop.get().saturating_sub(pos);
        if room == 0 {
            return Err(io::Error::other("cell too large"));
        }
        let n = buf.len().min(usize::try_from(room).unwrap_or(usize::MAX));
        let got = self.inner.read(&mut buf[..n])?;
        self.state.pos.set(pos + got as u64);
        Ok(got)
    }
}

/// The top-level object.
pub(super) struct NotebookSeed<'a> {
    pub sel: &'a CellSelection,
    pub out: &'a mut Collected,
    pub state: Rc<State>,
    pub max_cell_bytes: u64,
    pub outline_budget: u64,
}

impl<'de> DeserializeSeed<'de> for NotebookSeed<'_> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

#[derive(Deserialize, Default)]
struct Metadata {
    #[serde(default)]
    language_info: Option<Named>,
    #[serde(default)]
    kernelspec: Option<Kernelspec>,
}

#[derive(Deserialize)]
struct Named {
    #[serde(default)]
    name: Option<String>,
}

#[derive(Deserialize)]
struct Kernelspec {
    #[serde(default)]
    language: Option<String>,
}

impl<'de> Visitor<'de> for NotebookSeed<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a notebook object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let NotebookSeed {
            sel,
            out,
            state,
            max_cell_bytes,
            outline_budget,
        } = self;
        out.sources_complete = true;
        let mut budget = outline_budget;
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "cells" => map.next_value_seed(CellsSeed {
                    sel,
                    out: &mut *out,
                    state: state.clone(),
                    max_cell_bytes,
                    budget: &mut budget,
                })?,
                "metadata" => {
                    let m: Metadata = map.next_value()?;
                    out.language = m
                        .language_info
                        .and_then(|l| l.name)
                        .or(m.kernelspec.and_then(|k| k.language));
                }
                "nbformat" => out.nbformat = map.next_value::<Option<u64>>()?,
                "nbformat_minor" => out.nbformat_minor = map.next_value::<Option<u64>>()?,
                "worksheets" => {
                    out.worksheets = true;
                    map.next_value::<IgnoredAny>()?;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
}

struct CellsSeed<'a> {
    sel: &'a CellSelection,
    out: &'a mut Collected,
    state: Rc<State>,
    max_cell_bytes: u64,
    budget: &'a mut u64,
}

impl<'de> DeserializeSeed<'de> for CellsSeed<'_> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for CellsSeed<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of cells")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut index = 0u64;
        loop {
            let start = self.state.pos.get();
            self.state
                .stop
                .set(start.saturating_add(self.max_cell_bytes));
            self.state.over.set(Some(index));
            let seed = CellSeed {
                index,
                sel: self.sel,
                state: &self.state,
            };
            let Some(cell) = seq.next_element_seed(seed)? else {
                break;
            };
            self.state.stop.set(u64::MAX);
            self.state.over.set(None);
            let cost = cell.source.len() as u64 + 64;
            if *self.budget >= cost {
                *self.budget -= cost;
                self.out
                    .sources
                    .push((index, cell.cell_type.clone(), cell.source.clone()));
            } else {
                self.out.sources_complete = false;
            }
            if cell.selected {
                self.out.cells.push(cell);
            }
            index += 1;
        }
        self.state.stop.set(u64::MAX);
        self.state.over.set(None);
        self.out.cell_count = index;
        Ok(())
    }
}

struct CellSeed<'a> {
    index: u64,
    sel: &'a CellSelection,
    state: &'a State,
}

impl<'de> DeserializeSeed<'de> for CellSeed<'_> {
    type Value = RawCell;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<RawCell, D::Error> {
        d.deserialize_map(self)
    }
}

/// A string, or a list of strings joined (nbformat's "multiline string").
struct Multiline(String);

impl<'de> Deserialize<'de> for Multiline {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Value::deserialize(d)? {
            Value::String(s) => Ok(Multiline(s)),
            Value::Array(parts) => Ok(Multiline(
                parts
                    .iter()
                    .filter_map(Value::as_str)
                    .collect::<Vec<_>>()
                    .concat(),
            )),
            Value::Null => Ok(Multiline(String::new())),
            other => Err(de::Error::custom(format!(
                "expected a string or a list of strings, found {other}"
            ))),
        }
    }
}

impl<'de> Visitor<'de> for CellSeed<'_> {
    type Value = RawCell;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a cell object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawCell, A::Error> {
        let mut cell = RawCell {
            index: self.index,
            ..RawCell::default()
        };
        let by_index = self.sel.selects_index(self.index);
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "cell_type" => cell.cell_type = map.next_value()?,
                "id" => cell.id = map.next_value()?,
                "execution_count" => cell.execution_count = map.next_value()?,
                "source" => cell.source = map.next_value::<Multiline>()?.0,
                // The id may come after the outputs (keys are sorted by nbformat, but
                // not by every writer): keep them until the id is known.
                "outputs" if by_index || (self.sel.by_id() && cell.id.is_none()) => {
                    cell.outputs = map.next_value()?;
                }
                "outputs" if self.sel.selects(self.index, cell.id.as_deref()) => {
                    cell.outputs = map.next_value()?;
                }
                // Skipped outputs are never held, so they do not count against the
                // cell's allowance (a skip costs time, not memory).
                "outputs" => {
                    let left = self.state.stop.get().saturating_sub(self.state.pos.get());
                    self.state.stop.set(u64::MAX);
                    map.next_value::<IgnoredAny>()?;
                    let now = self.state.pos.get();
                    self.state.stop.set(now.saturating_add(left));
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        cell.selected = self.sel.selects(self.index, cell.id.as_deref());
        if !cell.selected {
            cell.outputs = Vec::new();
        }
        Ok(cell)
    }
}
