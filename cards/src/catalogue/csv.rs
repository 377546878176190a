//! Catalogues from spreadsheets: one CSV row per card, the header row naming the game's fields as
//! in the TOML format.
//!
//! Nothing here knows a game. The columns a game takes and the type of each are read off the
//! game's own card type (the one the TOML loader fills) by a probing deserializer, once:
//! [`Shape`]. A row is then turned into the same TOML table the TOML loader takes, each cell
//! typed as the card type asks (a number where it wants a number, a list where it wants a list),
//! and the whole file into a TOML catalogue, which [`Catalogue::load`] checks as it checks any
//! other. So a CSV card is refused for exactly the reasons a TOML card is, and every problem is
//! reported by row, column and field.
//!
//! - Cells: text as typed; numbers; `true`/`false` (any case); an empty cell leaves the field out.
//!   Where a field takes either a number or text (a Yomi rank), a cell in TOML quotes (`"2"`) is
//!   text.
//! - A field that holds a list takes its items separated by `;` (`rock;paper`), or a TOML array
//!   (`["rock", "paper"]`).
//! - A field that holds a table is given by one column per entry, named with a dot (`top.kind`,
//!   `top.speed`), or as one TOML inline table in a column of its own (`{ kind = "attack" }`).
//!   A list of tables numbers its items from 1: `abilities.1.text`, `abilities.2.text`.
//! - The column `decks` puts the card into the set's ready-made decks: `lantern`, or `lantern*2`
//!   for two copies, several separated by `;`. A deck read so is named by its id.
//! - UTF-8, with or without a byte-order mark; RFC 4180 quoting (`"a, b"`, `"say ""hi"""`).
//!
//! ```
//! use cards::catalogue::csv::CsvSet;
//! use cards::core::GameId;
//! let text = "id,name_ja,name_en,kind,cost,atk,def,tribe\nX1,灯り小僧,Lantern Imp,nm,1,2,1,暗灯族\n";
//! let set = CsvSet::new(GameId::Jaken, "my-jaken", "My Jaken cards", "");
//! let (cat, toml) = cards::catalogue::Catalogue::load_csv("mine.csv", text, &set).unwrap();
//! assert_eq!(cat.card("X1").unwrap().name_en, "Lantern Imp");
//! assert!(toml.contains("atk = 2"));
//! // A bad number names its row, column and field.
//! let bad = text.replace(",2,1,", ",two,1,");
//! let err = cards::catalogue::Catalogue::load_csv("mine.csv", &bad, &set).unwrap_err();
//! assert_eq!((err.row, err.column, err.field.as_deref()), (2, Some(6), Some("atk")));
//! assert_eq!(err.to_string(), "mine.csv: row 2, column F (`atk`): `two` is not a whole number");
//! ```

use super::{Catalogue, CatalogueError, FORMAT_VERSION};
use crate::core::GameId;
use serde::de::{self, DeserializeOwned, Visitor};
use std::collections::BTreeMap;
use std::fmt;

/// The set a CSV file's cards make up: a CSV holds cards only, so the set comes from options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CsvSet {
    /// The game.
    pub game: GameId,
    /// The set id decks will name.
    pub id: String,
    /// English set name.
    pub name_en: String,
    /// Japanese set name (the English one when none is given).
    pub name_ja: String,
    /// A note shown with the set.
    pub note: String,
}

impl CsvSet {
    /// A set with one name for both languages when `name_ja` is empty.
    pub fn new(game: GameId, id: &str, name_en: &str, name_ja: &str) -> CsvSet {
        CsvSet {
            game,
            id: id.to_owned(),
            name_en: name_en.to_owned(),
            name_ja: if name_ja.is_empty() { name_en } else { name_ja }.to_owned(),
            note: String::new(),
        }
    }
}

/// A problem in a CSV file, located to the row (the header is row 1), column and field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct CsvError {
    /// The file's name as given.
    pub file: String,
    /// 1-based row, as a spreadsheet numbers it (the header row is 1); 0 for the set options.
    pub row: usize,
    /// 1-based column, when one is concerned.
    pub column: Option<usize>,
    /// The field (column name) concerned.
    pub field: Option<String>,
    /// What is wrong, in English.
    pub message: String,
    /// What is wrong, in Japanese.
    pub message_ja: String,
}

/// The spreadsheet letter of a 1-based column: 1 → `A`, 27 → `AA`.
pub fn column_letter(column: usize) -> String {
    let mut n = column;
    let mut out = Vec::new();
    while n > 0 {
        let rem = (n - 1) % 26;
        out.push(char::from(b'A' + u8::try_from(rem).unwrap_or(0)));
        n = (n - 1) / 26;
    }
    out.iter().rev().collect()
}

impl CsvError {
    fn place(&self, ja: bool) -> String {
        let mut place = if self.row == 0 {
            if ja {
                "セットの指定".to_owned()
            } else {
                "the set options".to_owned()
            }
        } else if ja {
            format!("{}行目", self.row)
        } else {
            format!("row {}", self.row)
        };
        if let Some(c) = self.column {
            if ja {
                place.push_str(&format!(" {}列", column_letter(c)));
            } else {
                place.push_str(&format!(", column {}", column_letter(c)));
            }
        }
        if let Some(f) = &self.field {
            place.push_str(&format!(" (`{f}`)"));
        }
        place
    }

    /// The problem in Japanese, with its place.
    pub fn ja(&self) -> String {
        format!("{}: {}: {}", self.file, self.place(true), self.message_ja)
    }
}

impl fmt::Display for CsvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}: {}", self.file, self.place(false), self.message)
    }
}

// ---------------------------------------------------------------------------------------------
// The shape of a game's card, read off its Rust type.

/// What a cell (or a group of columns) of a card holds, as the card type asks for it.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// One value.
    Leaf(Leaf),
    /// A table with these fields, in the order the card type declares them.
    Table(Vec<(&'static str, Shape)>),
    /// A list of items of this shape.
    List(Box<Shape>),
}

/// The type of one value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leaf {
    /// `true` or `false`.
    Bool,
    /// A whole number.
    Int,
    /// A number.
    Float,
    /// Text.
    Text,
    /// A number, `true`/`false`, a TOML array or table, or else text.
    Any,
}

/// What the probe found where it was sent.
#[derive(Debug)]
enum Found {
    Leaf(Leaf),
    Table(&'static [&'static str]),
    List,
    Other,
}

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

impl std::error::Error for Found {}

impl de::Error for Found {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        let _ = msg.to_string();
        Found::Other
    }
}

#[derive(Clone, Copy, Debug)]
enum Step {
    Field(&'static str),
    Item,
}

/// A deserializer that walks `path` into the requested type and reports what it finds there.
struct Probe<'p> {
    path: &'p [Step],
}

impl<'de> de::Deserializer<'de> for Probe<'_> {
    type Error = Found;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Found> {
        Err(Found::Leaf(Leaf::Any))
    }
    fn deserialize_bool<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Found> {
        Err(Found::Leaf(Leaf::Bool))
    }
    fn deserialize_i8<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Found> {
        Err(Found::Leaf(Leaf::Int))
    }
    fn deserialize_i16<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Found> {
        Err(Found::Leaf(Leaf::Int))
    }
    fn deserialize_i32<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Found> {
        Err(Found::Leaf(Leaf::Int))
    }
    fn deserialize_i64<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Found> {
        Err(Found::Leaf(Leaf::Int))
    }
    fn deserialize_u8<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Found> {
        Err(Found::Leaf(Leaf::Int))
    }
    fn deserialize_u16<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Found> {
        Err(Found::Leaf(Leaf::Int))
    }
    fn deserialize_u32<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Found> {
        Err(Found::Leaf(Leaf::Int))
    }
    fn deserialize_u64<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Found> {
        Err(Found::Leaf(Leaf::Int))
    }
    fn deserialize_f32<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Found> {
        Err(Found::Leaf(Leaf::Float))
    }
    fn deserialize_f64<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Found> {
        Err(Found::Leaf(Leaf::Float))
    }
    fn deserialize_char<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Found> {
        Err(Found::Leaf(Leaf::Text))
    }
    fn deserialize_str<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Found> {
        Err(Found::Leaf(Leaf::Text))
    }
    fn deserialize_string<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Found> {
        Err(Found::Leaf(Leaf::Text))
    }
    fn deserialize_bytes<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Found> {
        Err(Found::Leaf(Leaf::Text))
    }
    fn deserialize_byte_buf<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Found> {
        Err(Found::Leaf(Leaf::Text))
    }
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Found> {
        visitor.visit_some(self)
    }
    fn deserialize_unit<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Found> {
        Err(Found::Leaf(Leaf::Any))
    }
    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: V,
    ) -> Result<V::Value, Found> {
        Err(Found::Leaf(Leaf::Any))
    }
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, Found> {
        visitor.visit_newtype_struct(self)
    }
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Found> {
        match self.path.split_first() {
            None => Err(Found::List),
            Some((Step::Item, rest)) => visitor.visit_seq(ProbeSeq { rest: Some(rest) }),
            Some((Step::Field(_), _)) => Err(Found::Other),
        }
    }
    fn deserialize_tuple<V: Visitor<'de>>(self, _: usize, visitor: V) -> Result<V::Value, Found> {
        self.deserialize_seq(visitor)
    }
    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: usize,
        visitor: V,
    ) -> Result<V::Value, Found> {
        self.deserialize_seq(visitor)
    }
    fn deserialize_map<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Found> {
        Err(Found::Leaf(Leaf::Any))
    }
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Found> {
        match self.path.split_first() {
            None => Err(Found::Table(fields)),
            Some((Step::Field(f), rest)) => visitor.visit_map(ProbeMap { key: Some(f), rest }),
            Some((Step::Item, _)) => Err(Found::Other),
        }
    }
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Found> {
        Err(Found::Leaf(Leaf::Text))
    }
    fn deserialize_identifier<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Found> {
        Err(Found::Leaf(Leaf::Text))
    }
    fn deserialize_ignored_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Found> {
        Err(Found::Leaf(Leaf::Any))
    }
}

struct ProbeMap<'p> {
    key: Option<&'static str>,
    rest: &'p [Step],
}

impl<'de> de::MapAccess<'de> for ProbeMap<'_> {
    type Error = Found;
    fn next_key_seed<K: de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Found> {
        match self.key.take() {
            Some(k) => seed
                .deserialize(de::value::BorrowedStrDeserializer::new(k))
                .map(Some),
            None => Ok(None),
        }
    }
    fn next_value_seed<V: de::DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Found> {
        seed.deserialize(Probe { path: self.rest })
    }
}

struct ProbeSeq<'p> {
    rest: Option<&'p [Step]>,
}

impl<'de> de::SeqAccess<'de> for ProbeSeq<'_> {
    type Error = Found;
    fn next_element_seed<T: de::DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Found> {
        match self.rest.take() {
            Some(rest) => seed.deserialize(Probe { path: rest }).map(Some),
            None => Ok(None),
        }
    }
}

/// How deep the probe looks (the card types nest two tables deep at most).
const MAX_DEPTH: usize = 8;

fn explore<T: DeserializeOwned>(path: &mut Vec<Step>) -> Shape {
    match T::deserialize(Probe { path }) {
        Err(Found::Table(fields)) if path.len() < MAX_DEPTH => {
            let mut out = Vec::with_capacity(fields.len());
            for f in fields {
                path.push(Step::Field(f));
                out.push((*f, explore::<T>(path)));
                path.pop();
            }
            Shape::Table(out)
        }
        Err(Found::List) if path.len() < MAX_DEPTH => {
            path.push(Step::Item);
            let item = explore::<T>(path);
            path.pop();
            Shape::List(Box::new(item))
        }
        Err(Found::Leaf(leaf)) => Shape::Leaf(leaf),
        _ => Shape::Leaf(Leaf::Any),
    }
}

/// The shape of a type that deserializes from a TOML table.
pub(crate) fn shape_of<T: DeserializeOwned>() -> Shape {
    explore::<T>(&mut Vec::new())
}

/// The fields of a game's card, as the CSV header names them (and the TOML format does).
pub fn card_shape(game: GameId) -> Shape {
    (game.descriptor().card_shape)()
}

impl Shape {
    fn field(&self, name: &str) -> Option<(usize, &Shape)> {
        match self {
            Shape::Table(fields) => fields
                .iter()
                .enumerate()
                .find(|(_, (f, _))| *f == name)
                .map(|(i, (_, s))| (i, s)),
            _ => None,
        }
    }

    fn field_names(&self) -> String {
        match self {
            Shape::Table(fields) => fields
                .iter()
                .map(|(f, _)| *f)
                .collect::<Vec<_>>()
                .join(", "),
            _ => String::new(),
        }
    }

    /// Every column a card of this shape can fill, dotted, lists of tables as `name.1.field`.
    pub fn columns(&self) -> Vec<String> {
        let mut out = Vec::new();
        self.collect_columns("", &mut out);
        out
    }

    fn collect_columns(&self, prefix: &str, out: &mut Vec<String>) {
        match self {
            Shape::Table(fields) if !prefix.is_empty() || !fields.is_empty() => {
                for (f, s) in fields {
                    let name = if prefix.is_empty() {
                        (*f).to_owned()
                    } else {
                        format!("{prefix}.{f}")
                    };
                    s.collect_columns(&name, out);
                }
            }
            Shape::List(item) if matches!(**item, Shape::Table(_)) => {
                item.collect_columns(&format!("{prefix}.1"), out);
            }
            _ => out.push(prefix.to_owned()),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Reading CSV text.

/// One record of a CSV file.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Record {
    /// 1-based row (the header is row 1).
    row: usize,
    cells: Vec<String>,
}

fn err(file: &str, row: usize, column: Option<usize>, en: String, ja: String) -> CsvError {
    CsvError {
        file: file.to_owned(),
        row,
        column,
        field: None,
        message: en,
        message_ja: ja,
    }
}

/// Splits CSV text (RFC 4180: `,` between cells, `"` around a cell that holds `,`, `"` or a line
/// break, `""` for a quote inside it) into records. A leading byte-order mark is skipped.
fn records(file: &str, text: &str) -> Result<Vec<Record>, CsvError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut out = Vec::new();
    let mut cells: Vec<String> = Vec::new();
    let mut cell = String::new();
    let mut row = 1;
    let mut chars = text.chars().peekable();
    // State: at a cell's start, inside an unquoted cell, inside quotes, after a closing quote.
    let mut quoted = false;
    let mut in_quotes = false;
    let mut after_quote = false;
    let mut quote_row = 1;
    let mut ended_record = true;
    while let Some(c) = chars.next() {
        if in_quotes {
            if c == '"' {
                if chars.peek() == Some(&'"') {
                    chars.next();
                    cell.push('"');
                } else {
                    in_quotes = false;
                    after_quote = true;
                }
            } else {
                cell.push(c);
            }
            continue;
        }
        ended_record = false;
        match c {
            ',' => {
                cells.push(std::mem::take(&mut cell));
                quoted = false;
                after_quote = false;
            }
            '\r' | '\n' => {
                if c == '\r' && chars.peek() == Some(&'\n') {
                    chars.next();
                }
                cells.push(std::mem::take(&mut cell));
                out.push(Record {
                    row,
                    cells: std::mem::take(&mut cells),
                });
                row += 1;
                quoted = false;
                after_quote = false;
                ended_record = true;
            }
            '"' if cell.is_empty() && !quoted => {
                quoted = true;
                in_quotes = true;
                quote_row = row;
            }
            _ if after_quote => {
                let column = cells.len() + 1;
                return Err(err(
                    file,
                    row,
                    Some(column),
                    format!(
                        "text after the closing quote of a quoted cell (`{c}`): put the whole cell in quotes and write a quote inside it as \"\""
                    ),
                    format!(
                        "引用符で囲んだセルの閉じ引用符の後に文字があります(`{c}`)。セル全体を引用符で囲み、中の引用符は \"\" と書いてください"
                    ),
                ));
            }
            '"' => {
                let column = cells.len() + 1;
                return Err(err(
                    file,
                    row,
                    Some(column),
                    "a quote inside a cell that does not start with one: put the whole cell in quotes and write the quote as \"\"".into(),
                    "引用符で始まらないセルの中に引用符があります。セル全体を引用符で囲み、引用符は \"\" と書いてください".into(),
                ));
            }
            _ => cell.push(c),
        }
    }
    if in_quotes {
        return Err(err(
            file,
            quote_row,
            Some(cells.len() + 1),
            "a quoted cell is never closed (a `\"` is missing)".into(),
            "引用符で囲んだセルが閉じられていません(`\"` が足りません)".into(),
        ));
    }
    if !ended_record {
        cells.push(cell);
        out.push(Record { row, cells });
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// Header and rows → TOML.

/// One column of the header, resolved against the card shape.
#[derive(Clone, Debug)]
struct Column {
    /// 1-based column number.
    number: usize,
    /// The header text, e.g. `top.speed`.
    name: String,
    /// The path into the card: field names and 1-based list positions.
    path: Vec<PathPart>,
    /// What the cell holds.
    shape: Shape,
    /// The `decks` column: the ready-made decks the card is in, not a field of the card.
    decks: bool,
}

/// The column that puts a card in the set's ready-made decks: `lantern` (one copy) or
/// `lantern*2`, several separated by `;`.
pub const DECKS_COLUMN: &str = "decks";

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum PathPart {
    Field(String),
    Index(usize),
}

fn resolve_header(file: &str, header: &Record, shape: &Shape) -> Result<Vec<Column>, CsvError> {
    let mut columns: Vec<Column> = Vec::with_capacity(header.cells.len());
    for (i, raw) in header.cells.iter().enumerate() {
        let number = i + 1;
        let name = raw.trim().to_owned();
        let at = |en: String, ja: String| {
            let mut e = err(file, 1, Some(number), en, ja);
            if !name.is_empty() {
                e.field = Some(name.clone());
            }
            e
        };
        if name.is_empty() {
            return Err(at(
                "this column has no name in the header row".into(),
                "この列には見出し行に名前がありません".into(),
            ));
        }
        if let Some(first) = columns.iter().find(|c| c.name == name) {
            return Err(at(
                format!(
                    "column `{name}` appears twice (also column {})",
                    column_letter(first.number)
                ),
                format!(
                    "列 `{name}` が二つあります({}列にも)",
                    column_letter(first.number)
                ),
            ));
        }
        if name == DECKS_COLUMN && shape.field(DECKS_COLUMN).is_none() {
            columns.push(Column {
                number,
                name,
                path: vec![PathPart::Field(DECKS_COLUMN.into())],
                shape: Shape::Leaf(Leaf::Text),
                decks: true,
            });
            continue;
        }
        let mut here = shape;
        let mut path = Vec::new();
        let mut so_far = String::new();
        for part in name.split('.') {
            let part = part.trim();
            match here {
                Shape::Table(_) => {
                    let Some((_, next)) = here.field(part) else {
                        let (en, ja) = if so_far.is_empty() {
                            (
                                format!(
                                    "unknown column `{name}`; a card's fields are: {}",
                                    here.field_names()
                                ),
                                format!(
                                    "不明な列 `{name}` です。カードの項目は次のとおりです: {}",
                                    here.field_names()
                                ),
                            )
                        } else {
                            (
                                format!(
                                    "unknown column `{name}`: `{so_far}` has the fields {}",
                                    here.field_names()
                                ),
                                format!(
                                    "不明な列 `{name}` です。`{so_far}` の項目は次のとおりです: {}",
                                    here.field_names()
                                ),
                            )
                        };
                        return Err(at(en, ja));
                    };
                    path.push(PathPart::Field(part.to_owned()));
                    here = next;
                }
                Shape::List(item) => {
                    let index = part.parse::<usize>().ok().filter(|n| (1..=999).contains(n));
                    let Some(index) = index else {
                        return Err(at(
                            format!(
                                "column `{name}`: `{so_far}` is a list; name its items by number from 1 (`{so_far}.1…`), or give the whole list in one `{so_far}` column"
                            ),
                            format!(
                                "列 `{name}`: `{so_far}` はリストです。項目は1からの番号で(`{so_far}.1…`)、またはリスト全体を一つの `{so_far}` 列で指定してください"
                            ),
                        ));
                    };
                    path.push(PathPart::Index(index));
                    here = item;
                }
                Shape::Leaf(_) => {
                    return Err(at(
                        format!("unknown column `{name}`: `{so_far}` holds one value"),
                        format!("不明な列 `{name}` です。`{so_far}` は一つの値です"),
                    ));
                }
            }
            if !so_far.is_empty() {
                so_far.push('.');
            }
            so_far.push_str(part);
        }
        if let Some(other) = columns
            .iter()
            .find(|c| c.path.starts_with(&path) || path.starts_with(&c.path))
        {
            return Err(at(
                format!(
                    "columns `{}` ({}) and `{name}` overlap: give a table either whole or by its fields",
                    other.name,
                    column_letter(other.number)
                ),
                format!(
                    "列 `{}`({}列)と `{name}` が重なっています。表は全体か項目ごとのどちらかで指定してください",
                    other.name,
                    column_letter(other.number)
                ),
            ));
        }
        columns.push(Column {
            number,
            name,
            path,
            shape: here.clone(),
            decks: false,
        });
    }
    if let Shape::Table(fields) = shape {
        for required in ["id", "name_ja", "name_en"] {
            if fields.iter().any(|(f, _)| *f == required)
                && !columns
                    .iter()
                    .any(|c| c.path.first() == Some(&PathPart::Field(required.into())))
            {
                let mut e = err(
                    file,
                    1,
                    None,
                    format!("the header row has no `{required}` column; every card needs one"),
                    format!("見出し行に `{required}` 列がありません。どのカードにも必要です"),
                );
                e.field = Some(required.to_owned());
                return Err(e);
            }
        }
    }
    Ok(columns)
}

/// A value being built from the cells of one row.
#[derive(Debug)]
enum Node {
    Value(toml::Value),
    Table(Vec<(String, Node)>),
    List(BTreeMap<usize, Node>),
}

impl Node {
    fn insert(&mut self, path: &[PathPart], value: toml::Value) {
        let Some((first, rest)) = path.split_first() else {
            *self = Node::Value(value);
            return;
        };
        match (self, first) {
            (Node::Table(entries), PathPart::Field(f)) => {
                let slot = match entries.iter().position(|(k, _)| k == f) {
                    Some(i) => &mut entries[i].1,
                    None => {
                        entries.push((f.clone(), new_node(rest)));
                        let last = entries.len() - 1;
                        &mut entries[last].1
                    }
                };
                slot.insert(rest, value);
            }
            (Node::List(items), PathPart::Index(i)) => {
                items
                    .entry(*i)
                    .or_insert_with(|| new_node(rest))
                    .insert(rest, value);
            }
            // The header was resolved against the shape, so paths agree with the nodes.
            _ => {}
        }
    }
}

fn new_node(rest: &[PathPart]) -> Node {
    match rest.first() {
        Some(PathPart::Index(_)) => Node::List(BTreeMap::new()),
        Some(PathPart::Field(_)) => Node::Table(Vec::new()),
        None => Node::Value(toml::Value::Boolean(false)),
    }
}

/// A cell turned into a value of the shape its column holds; `Err((en, ja))` says why not.
fn typed(cell: &str, shape: &Shape) -> Result<toml::Value, (String, String)> {
    let trimmed = cell.trim();
    match shape {
        Shape::Leaf(Leaf::Text) => Ok(toml::Value::String(cell.to_owned())),
        Shape::Leaf(Leaf::Int) => trimmed
            .strip_prefix('+')
            .unwrap_or(trimmed)
            .parse::<i64>()
            .map(toml::Value::Integer)
            .map_err(|_| {
                (
                    format!("`{trimmed}` is not a whole number"),
                    format!("`{trimmed}` は整数ではありません"),
                )
            }),
        Shape::Leaf(Leaf::Float) => trimmed
            .parse::<f64>()
            .ok()
            .filter(|f| f.is_finite())
            .map(toml::Value::Float)
            .ok_or_else(|| {
                (
                    format!("`{trimmed}` is not a number"),
                    format!("`{trimmed}` は数ではありません"),
                )
            }),
        Shape::Leaf(Leaf::Bool) => parse_bool(trimmed)
            .map(toml::Value::Boolean)
            .ok_or_else(|| {
                (
                    format!("`{trimmed}` is not true or false"),
                    format!("`{trimmed}` は true でも false でもありません"),
                )
            }),
        Shape::Leaf(Leaf::Any) => {
            if trimmed.starts_with(['[', '{', '"']) {
                inline_toml(trimmed)
            } else if let Ok(n) = trimmed.parse::<i64>() {
                Ok(toml::Value::Integer(n))
            } else if let Some(b) = parse_bool(trimmed) {
                Ok(toml::Value::Boolean(b))
            } else {
                Ok(toml::Value::String(cell.to_owned()))
            }
        }
        Shape::List(item) => {
            if trimmed.starts_with('[') {
                return inline_toml(trimmed);
            }
            if !matches!(**item, Shape::Leaf(_)) {
                return Err((
                    "this list of tables takes a TOML array (`[{ … }, { … }]`) or numbered columns (`name.1.field`)".into(),
                    "この表のリストには TOML の配列(`[{ … }, { … }]`)か番号付きの列(`name.1.field`)が必要です".into(),
                ));
            }
            trimmed
                .split(';')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(|s| typed(s, item))
                .collect::<Result<Vec<_>, _>>()
                .map(toml::Value::Array)
        }
        Shape::Table(fields) => {
            if trimmed.starts_with('{') {
                return inline_toml(trimmed);
            }
            let names: Vec<&str> = fields.iter().map(|(f, _)| *f).collect();
            Err((
                format!(
                    "this column holds a table: write it as `{{ key = value, … }}`, or use one column per field ({})",
                    names.join(", ")
                ),
                format!(
                    "この列は表です。`{{ key = value, … }}` と書くか、項目ごとの列({})を使ってください",
                    names.join(", ")
                ),
            ))
        }
    }
}

fn parse_bool(text: &str) -> Option<bool> {
    if text.eq_ignore_ascii_case("true") {
        Some(true)
    } else if text.eq_ignore_ascii_case("false") {
        Some(false)
    } else {
        None
    }
}

fn inline_toml(text: &str) -> Result<toml::Value, (String, String)> {
    text.parse::<toml::Value>().map_err(|e| {
        let why = e.message().to_owned();
        (
            format!("not a TOML value: {why}"),
            format!("TOML の値として読めません: {why}"),
        )
    })
}

/// Writes a TOML value on one line (strings escaped, tables inline).
fn write_inline(out: &mut String, value: &toml::Value) {
    match value {
        toml::Value::String(s) => write_string(out, s),
        toml::Value::Integer(i) => out.push_str(&i.to_string()),
        toml::Value::Float(f) => {
            if f.is_nan() {
                out.push_str("nan");
            } else if f.is_infinite() {
                out.push_str(if *f > 0.0 { "inf" } else { "-inf" });
            } else {
                out.push_str(&format!("{f:?}"));
            }
        }
        toml::Value::Boolean(b) => out.push_str(if *b { "true" } else { "false" }),
        toml::Value::Datetime(d) => out.push_str(&d.to_string()),
        toml::Value::Array(items) => {
            out.push('[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_inline(out, v);
            }
            out.push(']');
        }
        toml::Value::Table(t) => {
            out.push_str("{ ");
            for (i, (k, v)) in t.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_key(out, k);
                out.push_str(" = ");
                write_inline(out, v);
            }
            out.push_str(" }");
        }
    }
}

/// A TOML table's entries in the given order (toml's own map sorts them).
fn write_entries_inline(out: &mut String, entries: &[(String, Node)]) {
    out.push_str("{ ");
    for (i, (k, n)) in entries.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_key(out, k);
        out.push_str(" = ");
        write_node(out, n);
    }
    out.push_str(" }");
}

fn write_node(out: &mut String, node: &Node) {
    match node {
        Node::Value(v) => write_inline(out, v),
        Node::Table(entries) => write_entries_inline(out, entries),
        Node::List(items) => {
            out.push('[');
            for (i, n) in items.values().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_node(out, n);
            }
            out.push(']');
        }
    }
}

fn write_key(out: &mut String, key: &str) {
    if !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        out.push_str(key);
    } else {
        write_string(out, key);
    }
}

fn write_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// A card's table in the generated TOML: its first line, its CSV row, and (line, key) of each
/// of its top-level keys.
type CardLines = (usize, usize, Vec<(usize, String)>);

/// Where each line of the generated TOML came from.
#[derive(Debug, Default)]
struct LineMap {
    /// (first line of a card's table, its row, the line of each of its top-level keys).
    cards: Vec<CardLines>,
    /// (first line of a deck's table, the first row that puts a card in it, the decks column).
    decks: Vec<(usize, usize, Option<usize>)>,
}

/// The CSV of a game's cards as the TOML catalogue the loader takes.
fn generate(file: &str, text: &str, set: &CsvSet) -> Result<(String, LineMap), CsvError> {
    let shape = card_shape(set.game);
    let mut recs = records(file, text)?.into_iter();
    let Some(header) = recs.next() else {
        return Err(err(
            file,
            1,
            None,
            "the file is empty: the first row must name the columns (id, name_ja, name_en, kind, …)"
                .into(),
            "ファイルが空です。1行目に列の名前(id, name_ja, name_en, kind, …)が必要です".into(),
        ));
    };
    let columns = resolve_header(file, &header, &shape)?;
    let mut out = String::with_capacity(text.len() * 2 + 256);
    out.push_str(&format!(
        "format = {FORMAT_VERSION}\ngame = \"{}\"\n\n[set]\nid = ",
        set.game.as_str()
    ));
    write_string(&mut out, &set.id);
    out.push_str("\nname_en = ");
    write_string(&mut out, &set.name_en);
    out.push_str("\nname_ja = ");
    write_string(&mut out, &set.name_ja);
    out.push_str("\ndemo = false\nnote = ");
    write_string(&mut out, &set.note);
    out.push('\n');
    let mut line = out.matches('\n').count() + 1;
    let mut map = LineMap::default();
    let mut ids: BTreeMap<String, usize> = BTreeMap::new();
    let mut decks: BTreeMap<String, (usize, Vec<String>)> = BTreeMap::new();
    let id_column = columns
        .iter()
        .position(|c| c.path == [PathPart::Field("id".into())]);
    for rec in recs {
        if rec.cells.iter().all(|c| c.trim().is_empty()) {
            continue;
        }
        if rec.cells.len() != columns.len() {
            let column = (rec.cells.len() > columns.len()).then_some(columns.len() + 1);
            return Err(err(
                file,
                rec.row,
                column,
                format!(
                    "this row has {} cells but the header row names {} columns",
                    rec.cells.len(),
                    columns.len()
                ),
                format!(
                    "この行のセルは{}個ですが、見出し行の列は{}個です",
                    rec.cells.len(),
                    columns.len()
                ),
            ));
        }
        if let Some(i) = id_column
            && let Some(id) = rec.cells.get(i).map(|s| s.trim())
            && !id.is_empty()
            && let Some(first) = ids.insert(id.to_owned(), rec.row)
        {
            let mut e = err(
                file,
                rec.row,
                Some(i + 1),
                format!("card id `{id}` appears twice (also in row {first})"),
                format!("カードID `{id}` が二回出てきます({first}行目にも)"),
            );
            e.field = Some("id".into());
            return Err(e);
        }
        let mut card = Node::Table(Vec::new());
        for (col, cell) in columns.iter().zip(&rec.cells) {
            if cell.trim().is_empty() {
                continue;
            }
            if col.decks {
                let id = id_column
                    .and_then(|i| rec.cells.get(i))
                    .map_or("", |s| s.trim());
                for (deck, copies) in deck_entries(cell).map_err(|(en, ja)| {
                    let mut e = err(file, rec.row, Some(col.number), en, ja);
                    e.field = Some(col.name.clone());
                    e
                })? {
                    let entry = decks.entry(deck).or_insert_with(|| (rec.row, Vec::new()));
                    entry.1.extend(std::iter::repeat_n(id.to_owned(), copies));
                }
                continue;
            }
            let value = typed(cell, &col.shape).map_err(|(en, ja)| {
                let mut e = err(file, rec.row, Some(col.number), en, ja);
                e.field = Some(col.name.clone());
                e
            })?;
            card.insert(&col.path, value);
        }
        out.push_str("\n[[cards]]\n");
        line += 1;
        let start = line;
        line += 1;
        let mut keys = Vec::new();
        if let Node::Table(entries) = &card {
            for (k, n) in entries {
                write_key(&mut out, k);
                out.push_str(" = ");
                write_node(&mut out, n);
                out.push('\n');
                keys.push((line, k.clone()));
                line += 1;
            }
        }
        map.cards.push((start, rec.row, keys));
    }
    let decks_column = columns.iter().find(|c| c.decks).map(|c| c.number);
    for (id, (row, cards)) in decks {
        out.push_str("\n[[decks]]\n");
        line += 1;
        map.decks.push((line, row, decks_column));
        out.push_str("id = ");
        write_string(&mut out, &id);
        out.push_str("\nname = ");
        write_string(&mut out, &id);
        out.push_str("\ncards = [");
        for (i, c) in cards.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            write_string(&mut out, c);
        }
        out.push_str("]\n");
        line += 4;
    }
    Ok((out, map))
}

/// The entries of a `decks` cell: (deck id, copies).
fn deck_entries(cell: &str) -> Result<Vec<(String, usize)>, (String, String)> {
    let mut out = Vec::new();
    for entry in cell.split(';').map(str::trim).filter(|e| !e.is_empty()) {
        let (id, copies) = match entry.split_once('*') {
            Some((id, n)) => (id.trim(), n.trim().parse::<usize>().ok()),
            None => (entry, Some(1)),
        };
        let copies = copies.filter(|n| (1..=crate::tags::MAX_COPY.into()).contains(n));
        let (Some(copies), false) = (copies, id.is_empty()) else {
            return Err((
                format!(
                    "`{entry}` is not a deck entry: write the deck id, or the id and the copies as `id*2`"
                ),
                format!(
                    "`{entry}` はデッキの指定として読めません。デッキIDか、IDと枚数を `id*2` のように書いてください"
                ),
            ));
        };
        out.push((id.to_owned(), copies));
    }
    Ok(out)
}

/// A loader error in the generated TOML, told in the CSV's rows and columns.
fn locate(file: &str, e: &CatalogueError, map: &LineMap, header: &[Column]) -> CsvError {
    if let Some((_, row, column)) = map
        .decks
        .iter()
        .rev()
        .find(|(start, _, _)| *start <= e.line)
    {
        return CsvError {
            file: file.to_owned(),
            row: *row,
            column: *column,
            field: Some(DECKS_COLUMN.to_owned()),
            message: e.message.clone(),
            message_ja: e.message.clone(),
        };
    }
    let card = map
        .cards
        .iter()
        .rev()
        .find(|(start, _, _)| *start <= e.line);
    let Some((_, row, keys)) = card else {
        let mut out = err(file, 0, None, e.message.clone(), e.message.clone());
        out.field.clone_from(&e.field);
        return out;
    };
    let key = keys
        .iter()
        .rev()
        .find(|(l, _)| *l <= e.line)
        .map(|(_, k)| k.as_str());
    fn top(c: &Column) -> Option<&str> {
        match c.path.first() {
            Some(PathPart::Field(f)) => Some(f.as_str()),
            _ => None,
        }
    }
    // The column of the named field, else the first column of the key on that line.
    let by_field = e.field.as_deref().and_then(|f| {
        header.iter().find(|c| c.name == f).or_else(|| {
            header.iter().find(|c| {
                key.is_some_and(|k| top(c) == Some(k))
                    && c.path.last() == Some(&PathPart::Field(f.to_owned()))
            })
        })
    });
    let column = by_field.or_else(|| {
        key.and_then(|k| header.iter().find(|c| top(c) == Some(k)))
            .filter(|_| e.field.is_none() || e.field.as_deref() == key)
    });
    let mut message = e.message.clone();
    let mut message_ja = e.message.clone();
    if column.is_none()
        && let Some(f) = &e.field
    {
        message.push_str(&format!(" (the header row has no `{f}` column)"));
        message_ja.push_str(&format!("(見出し行に `{f}` 列がありません)"));
    }
    CsvError {
        file: file.to_owned(),
        row: *row,
        column: column.map(|c| c.number),
        field: e.field.clone().or_else(|| column.map(|c| c.name.clone())),
        message,
        message_ja,
    }
}

impl Catalogue {
    /// Loads a catalogue from a CSV file's text: one row per card, the set from `set`. Returns
    /// the catalogue and the TOML text it was loaded from (the form the library stores and a
    /// friend can add). Every problem names the row, column and field.
    pub fn load_csv(file: &str, text: &str, set: &CsvSet) -> Result<(Catalogue, String), CsvError> {
        let (toml, map) = generate(file, text, set)?;
        match Catalogue::load(file, &toml) {
            Ok(cat) => Ok((cat, toml)),
            Err(e) => {
                let shape = card_shape(set.game);
                // The header resolved once already; resolving again cannot fail.
                let header = records(file, text)
                    .ok()
                    .and_then(|r| r.into_iter().next())
                    .and_then(|h| resolve_header(file, &h, &shape).ok())
                    .unwrap_or_default();
                Err(locate(file, &e, &map, &header))
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Writing CSV.

/// Why a catalogue could not be written as CSV.
fn bad_toml(e: &toml::de::Error) -> CsvError {
    err(
        "catalogue",
        0,
        None,
        format!("the catalogue is not valid TOML: {}", e.message()),
        format!("カタログが正しい TOML ではありません: {}", e.message()),
    )
}

/// Quotes a cell when it must be (RFC 4180).
fn cell(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) || text.starts_with(char::is_whitespace) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

/// A value as a cell of a column of this shape, so that reading it back gives the same value.
fn cell_text(value: &toml::Value, shape: &Shape) -> String {
    match (value, shape) {
        (toml::Value::String(s), Shape::Leaf(Leaf::Text)) => s.clone(),
        (toml::Value::String(s), Shape::Leaf(Leaf::Any))
            if !s.trim().starts_with(['[', '{', '"'])
                && s.trim().parse::<i64>().is_err()
                && parse_bool(s.trim()).is_none() =>
        {
            s.clone()
        }
        (toml::Value::Integer(i), Shape::Leaf(_)) => i.to_string(),
        (toml::Value::Boolean(b), Shape::Leaf(_)) => b.to_string(),
        (toml::Value::Float(f), Shape::Leaf(Leaf::Float)) => format!("{f:?}"),
        (toml::Value::Array(items), Shape::List(item))
            if matches!(**item, Shape::Leaf(_))
                && items.iter().all(|v| match v {
                    toml::Value::String(s) => {
                        !s.contains(';')
                            && !s.trim().is_empty()
                            && s.trim() == s
                            && !s.starts_with('[')
                    }
                    toml::Value::Integer(_) | toml::Value::Boolean(_) => true,
                    _ => false,
                })
                && !items.is_empty() =>
        {
            items
                .iter()
                .map(|v| cell_text(v, item))
                .collect::<Vec<_>>()
                .join(";")
        }
        (v, _) => {
            let mut out = String::new();
            write_inline(&mut out, v);
            out
        }
    }
}

/// Flattens one card's table into (column name, sort key, cell).
fn flatten(
    table: &toml::Table,
    shape: &Shape,
    prefix: &str,
    key: &mut Vec<usize>,
    out: &mut Vec<(String, Vec<usize>, String)>,
) {
    let Shape::Table(fields) = shape else { return };
    for (i, (name, sub)) in fields.iter().enumerate() {
        let Some(value) = table.get(*name) else {
            continue;
        };
        let column = if prefix.is_empty() {
            (*name).to_owned()
        } else {
            format!("{prefix}.{name}")
        };
        key.push(i);
        match (value, sub) {
            (toml::Value::Table(t), Shape::Table(_)) => flatten(t, sub, &column, key, out),
            (toml::Value::Array(items), Shape::List(item))
                if matches!(**item, Shape::Table(_))
                    && items.iter().all(|v| matches!(v, toml::Value::Table(_))) =>
            {
                for (n, v) in items.iter().enumerate() {
                    if let toml::Value::Table(t) = v {
                        key.push(n + 1);
                        flatten(t, item, &format!("{column}.{}", n + 1), key, out);
                        key.pop();
                    }
                }
            }
            _ => out.push((column, key.clone(), cell_text(value, sub))),
        }
        key.pop();
    }
}

/// A catalogue's cards as CSV, in the shape [`Catalogue::load_csv`] reads: a byte-order mark
/// (so spreadsheet programs read the Japanese names as UTF-8), a header row of the fields the
/// cards use in the order the format declares them (then the [`DECKS_COLUMN`] when the set has
/// ready-made decks), one row per card, CRLF line ends. The set's id and names, and the decks'
/// names, are not part of a CSV (a deck read from CSV is named by its id).
pub fn write_csv(game: GameId, catalogue_toml: &str) -> Result<String, CsvError> {
    let shape = card_shape(game);
    let doc: toml::Table = toml::from_str(catalogue_toml).map_err(|e| bad_toml(&e))?;
    let cards: Vec<&toml::Table> = match doc.get("cards") {
        Some(toml::Value::Array(items)) => items
            .iter()
            .filter_map(|v| match v {
                toml::Value::Table(t) => Some(t),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    // card id → [(deck id, copies)], decks in id order.
    let mut in_decks: BTreeMap<&str, BTreeMap<&str, usize>> = BTreeMap::new();
    if let Some(toml::Value::Array(decks)) = doc.get("decks") {
        for deck in decks {
            let id = deck.get("id").and_then(toml::Value::as_str).unwrap_or("");
            let Some(toml::Value::Array(list)) = deck.get("cards") else {
                continue;
            };
            for card in list.iter().filter_map(toml::Value::as_str) {
                *in_decks.entry(card).or_default().entry(id).or_default() += 1;
            }
        }
    }
    let mut rows = Vec::with_capacity(cards.len());
    let mut columns: BTreeMap<Vec<usize>, String> = BTreeMap::new();
    for card in &cards {
        let mut cells = Vec::new();
        flatten(card, &shape, "", &mut Vec::new(), &mut cells);
        let mut row = BTreeMap::new();
        for (name, key, text) in cells {
            columns.entry(key.clone()).or_insert(name);
            row.insert(key, text);
        }
        let id = card.get("id").and_then(toml::Value::as_str).unwrap_or("");
        if let Some(decks) = in_decks.get(id) {
            let key = vec![usize::MAX];
            columns
                .entry(key.clone())
                .or_insert_with(|| DECKS_COLUMN.to_owned());
            let entries: Vec<String> = decks
                .iter()
                .map(|(d, n)| {
                    if *n == 1 {
                        (*d).to_owned()
                    } else {
                        format!("{d}*{n}")
                    }
                })
                .collect();
            row.insert(key, entries.join(";"));
        }
        rows.push(row);
    }
    let mut out = String::from("\u{feff}");
    let header: Vec<String> = columns.values().map(|c| cell(c)).collect();
    out.push_str(&header.join(","));
    out.push_str("\r\n");
    for row in rows {
        let cells: Vec<String> = columns
            .keys()
            .map(|k| row.get(k).map_or_else(String::new, |t| cell(t)))
            .collect();
        out.push_str(&cells.join(","));
        out.push_str("\r\n");
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(game: GameId) -> CsvSet {
        CsvSet::new(game, "mine", "Mine", "わたしの")
    }

    #[test]
    fn the_probe_reads_each_game_s_fields_and_types() {
        let jaken = card_shape(GameId::Jaken);
        assert_eq!(
            jaken.field("id").map(|(_, s)| s),
            Some(&Shape::Leaf(Leaf::Text))
        );
        assert_eq!(
            jaken.field("atk").map(|(_, s)| s),
            Some(&Shape::Leaf(Leaf::Int))
        );
        let jk = card_shape(GameId::JunkKen);
        assert_eq!(
            jk.field("categories").map(|(_, s)| s),
            Some(&Shape::List(Box::new(Shape::Leaf(Leaf::Text))))
        );
        assert_eq!(
            jk.field("limited").map(|(_, s)| s),
            Some(&Shape::Leaf(Leaf::Bool))
        );
        let yomi = card_shape(GameId::Yomi);
        let cols = yomi.columns();
        assert!(cols.contains(&"top.speed".to_owned()), "{cols:?}");
        assert!(cols.contains(&"abilities.1.text".to_owned()), "{cols:?}");
        assert!(cols.contains(&"rank".to_owned()), "{cols:?}");
        let sj = card_shape(GameId::SpaceJunk);
        assert!(sj.field("move").is_some(), "{:?}", sj.columns());
    }

    #[test]
    fn quoting_bom_and_line_breaks_inside_cells_are_read() {
        let text = "\u{feff}a,b\r\n\"x, y\",\"say \"\"hi\"\"\nnext\"\r\n";
        let recs = records("f.csv", text).unwrap();
        assert_eq!(recs[0].cells, ["a", "b"]);
        assert_eq!(recs[1].cells, ["x, y", "say \"hi\"\nnext"]);
        assert_eq!(recs[1].row, 2);
        let e = records("f.csv", "a,b\n\"open,b\n").unwrap_err();
        assert_eq!((e.row, e.column), (2, Some(1)));
        let e = records("f.csv", "a,b\nx\"y,b\n").unwrap_err();
        assert_eq!((e.row, e.column), (2, Some(1)));
    }

    #[test]
    fn every_demo_set_goes_to_csv_and_back_to_the_same_cards() {
        for game in GameId::ALL {
            let demo = Catalogue::builtin(game).unwrap();
            let text = super::super::BUILTIN
                .iter()
                .map(|(_, t)| *t)
                .find(|t| Catalogue::load("x", t).is_ok_and(|c| c.game == game))
                .unwrap();
            let csv = write_csv(game, text).unwrap();
            let (back, toml) = Catalogue::load_csv("back.csv", &csv, &set(game))
                .unwrap_or_else(|e| panic!("{game}: {e}\n{csv}"));
            assert_eq!(back.cards, demo.cards, "{game}");
            let decks = |c: &Catalogue| {
                let mut d: Vec<(String, Vec<String>)> = c
                    .decks
                    .iter()
                    .map(|d| {
                        let mut cards = d.cards.clone();
                        cards.sort();
                        (d.id.clone(), cards)
                    })
                    .collect();
                d.sort();
                d
            };
            assert_eq!(decks(&back), decks(&demo), "{game}");
            // Written again, the CSV is the same bytes.
            assert_eq!(write_csv(game, &toml).unwrap(), csv, "{game}");
        }
    }

    #[test]
    fn a_missing_required_column_and_an_unknown_column_are_named() {
        let s = set(GameId::Jaken);
        let e = Catalogue::load_csv("c.csv", "id,name_ja,kind\nA,a,nm\n", &s).unwrap_err();
        assert_eq!((e.row, e.field.as_deref()), (1, Some("name_en")), "{e}");
        let e = Catalogue::load_csv("c.csv", "id,name_ja,name_en,kind,attack\n", &s).unwrap_err();
        assert_eq!(
            (e.row, e.column, e.field.as_deref()),
            (1, Some(5), Some("attack")),
            "{e}"
        );
        assert!(
            e.message.contains("atk"),
            "the known fields are listed: {e}"
        );
        // A column the card's kind needs, absent from the header: named with the row.
        let e = Catalogue::load_csv(
            "c.csv",
            "id,name_ja,name_en,kind,cost,def,tribe\nA,a,a,nm,1,1,t\n",
            &s,
        )
        .unwrap_err();
        assert_eq!((e.row, e.field.as_deref()), (2, Some("atk")), "{e}");
        assert!(e.message.contains("no `atk` column"), "{e}");
    }

    #[test]
    fn loader_errors_point_at_the_row_and_column_of_the_cell() {
        let s = set(GameId::Jaken);
        let text =
            "id,name_ja,name_en,kind,cost,atk,def,tribe\nA,a,a,nm,1,2,1,t\nB,b,b,nm,1,500,1,t\n";
        let e = Catalogue::load_csv("c.csv", text, &s).unwrap_err();
        assert_eq!(
            (e.row, e.column, e.field.as_deref()),
            (3, Some(6), Some("atk")),
            "{e}"
        );
        let dup =
            "id,name_ja,name_en,kind,cost,atk,def,tribe\nA,a,a,nm,1,2,1,t\nA,b,b,nm,1,5,1,t\n";
        let e = Catalogue::load_csv("c.csv", dup, &s).unwrap_err();
        assert_eq!((e.row, e.column), (3, Some(1)), "{e}");
        assert!(e.message.contains("row 2"), "{e}");
    }

    #[test]
    fn lists_split_on_semicolons_and_tables_come_by_dotted_columns() {
        let text = "id,name_ja,name_en,kind,cost,categories,rock,scissors,paper,limited\n\
                    JX1,試作,Proto,character,3,機械; 獣,atk 2,none,draw 1,TRUE\n";
        let (cat, toml) = Catalogue::load_csv("j.csv", text, &set(GameId::JunkKen)).unwrap();
        assert!(toml.contains("categories = [\"機械\", \"獣\"]"), "{toml}");
        assert!(toml.contains("limited = true"), "{toml}");
        assert_eq!(cat.cards.len(), 1);
    }

    #[test]
    fn column_letters_count_like_a_spreadsheet() {
        assert_eq!(column_letter(1), "A");
        assert_eq!(column_letter(26), "Z");
        assert_eq!(column_letter(27), "AA");
        assert_eq!(column_letter(53), "BA");
    }
}
