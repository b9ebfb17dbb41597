//! The agent's own argument validator, as data: the report a call gets when a value is
//! not of the type the agent's model of the tool declares, sent before the tool runs and
//! so without the tool's error wrapper (the OpenHands SDK's pydantic report).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The report of a validator that refuses a call before the tool sees it
/// ([`Arguments::validation`](crate::tool::Arguments::validation)). Under
/// [`Integers::Pydantic`](crate::tool::Integers::Pydantic) a `[start, end]` range must be
/// a list and each item pydantic's lax `int`, and a number parameter such an `int`; each
/// failure is an error of a pydantic type (`list_type`, `int_type`, `int_from_float`,
/// `int_parsing`, `int_parsing_size`), worded by [`Validation::messages`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Validation {
    /// The whole answer: `{tool}`, `{count}` (the errors), `{s}` (`s` for more than
    /// one), `{errors}` (each [`Validation::error`], one a line, in the order of the
    /// parameters and items), `{keys}` (the call's parameter names as a Python list,
    /// `['command', 'path']`, in the order the parsed arguments keep: by name).
    pub report: String,
    /// One error: `{loc}` (`view_range` or `view_range.0`), `{message}`, `{type}`,
    /// `{input}` (the value as Python's `repr`, over 50 characters cut to its first 25
    /// and last 24 around `...`, as pydantic cuts it), `{input_type}` (`float`, `str`,
    /// `NoneType` ...), `{version}`.
    pub error: String,
    /// The validator's version, as its texts name it (pydantic's documentation links:
    /// `2.14`).
    pub version: String,
    /// Each error type's message.
    pub messages: BTreeMap<String, String>,
}
