//! The input JSON Schema of a dialect's tool, from its parameters.

use serde_json::{json, Map, Value};

use crate::tool::dialect::{Dialect, Param, Role, Special};

/// `{"type": "object", "properties": ..., "required": [...], "additionalProperties":
/// false}` with the dialect's own top-level keys.
pub(crate) fn input_schema(d: &Dialect) -> Map<String, Value> {
    let mut props = Map::new();
    let mut required = Vec::new();
    for p in &d.params {
        props.insert(p.name.clone(), Value::Object(property(p)));
        if p.required {
            required.push(Value::String(p.name.clone()));
        }
    }
    let mut schema = Map::new();
    schema.insert("type".into(), json!("object"));
    schema.insert("properties".into(), Value::Object(props));
    schema.insert("required".into(), Value::Array(required));
    if !d.ignore_unknown {
        schema.insert("additionalProperties".into(), json!(false));
    }
    for (k, v) in &d.schema {
        schema.insert(k.clone(), v.clone());
    }
    schema
}

/// One property: the dialect's own schema for it, or the role's.
fn property(p: &Param) -> Map<String, Value> {
    let mut m = if p.schema.is_empty() {
        let v = match p.role {
            Role::Path
            | Role::Session
            | Role::Ignored
            | Role::Mode
            | Role::Pages
            | Role::Cells
            | Role::Crop => {
                json!({"type": "string"})
            }
            Role::Indentation => json!({"type": "object"}),
            Role::Command => json!({"type": "string", "enum": p.serves}),
            Role::Entire | Role::LineNumbers | Role::LiftCaps => json!({"type": "boolean"}),
            Role::LineRange => json!({
                "type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2
            }),
            Role::StartLine | Role::EndLine | Role::Offset => {
                if p.negative == Some(Special::Keep) {
                    json!({"type": "integer"})
                } else if matches!(p.zero, Some(Special::Keep | Special::Absent)) {
                    json!({"type": "integer", "minimum": 0})
                } else {
                    json!({"type": "integer", "minimum": 1})
                }
            }
            Role::Skip
            | Role::Limit
            | Role::Head
            | Role::Tail
            | Role::StartByte
            | Role::EndByte => {
                json!({"type": "integer", "minimum": 0})
            }
        };
        match v {
            Value::Object(m) => m,
            _ => Map::new(),
        }
    } else {
        p.schema.clone()
    };
    if !p.description.is_empty() {
        m.insert("description".into(), Value::String(p.description.clone()));
    }
    m
}
