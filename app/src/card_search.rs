//! Finding a card of a set by what a player types: part of its Japanese or English name or its
//! id, in any case, in full-width or half-width letters, in hiragana or katakana.
//!
//! The index folds every card's id and names once ([`fold`]); a search folds the query the same
//! way and scans the folded texts, so a search over 5,000 cards costs well under a frame
//! (`cargo bench --workspace --bench library` measures it). Results come best first: an exact id,
//! then an id or a name that starts with the query, then one that contains it; ties in the set's
//! card order (by id).
//!
//! ```
//! use tableside::card_search::SearchIndex;
//! let cat = cards::catalogue::Catalogue::builtin(cards::core::GameId::Jaken).unwrap();
//! let index = SearchIndex::new(&cat);
//! let hits = index.search("小僧", 10); // part of 灯り小僧
//! assert!(hits.iter().any(|&i| cat.cards[i].id == "JD01"));
//! let by_id = index.search("jd01", 10); // any case
//! assert_eq!(cat.cards[by_id[0]].id, "JD01");
//! let by_name = index.search("LANTERN imp", 10);
//! assert_eq!(cat.cards[by_name[0]].name_en, "Lantern Imp");
//! ```

use cards::catalogue::Catalogue;

/// A text folded for matching: lower case, full-width ASCII as half-width, katakana as hiragana,
/// runs of white space as one space, trimmed.
pub fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut space = false;
    for c in text.chars() {
        let c = match c {
            // Full-width ASCII (！ to ～) and the ideographic space.
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(u32::from(c) - 0xFEE0).unwrap_or(c),
            '\u{3000}' => ' ',
            // Katakana ァ..ヶ as hiragana ぁ..ゖ.
            '\u{30A1}'..='\u{30F6}' => char::from_u32(u32::from(c) - 0x60).unwrap_or(c),
            c => c,
        };
        if c.is_whitespace() {
            space = !out.is_empty();
            continue;
        }
        if space {
            out.push(' ');
            space = false;
        }
        for l in c.to_lowercase() {
            out.push(l);
        }
    }
    out
}

/// One card's folded id and names.
#[derive(Clone, Debug)]
struct Entry {
    id: String,
    names: [String; 2],
}

/// The folded ids and names of a set's cards, for searching.
#[derive(Clone, Debug, Default)]
pub struct SearchIndex {
    entries: Vec<Entry>,
}

impl SearchIndex {
    /// Folds every card of the catalogue.
    pub fn new(catalogue: &Catalogue) -> SearchIndex {
        SearchIndex {
            entries: catalogue
                .cards
                .iter()
                .map(|c| Entry {
                    id: fold(&c.id),
                    names: [fold(&c.name_ja), fold(&c.name_en)],
                })
                .collect(),
        }
    }

    /// How many cards the index holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when the set has no cards.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The positions (in the catalogue's `cards`) of at most `limit` cards matching `query`,
    /// best first. An empty query matches every card, in order.
    pub fn search(&self, query: &str, limit: usize) -> Vec<usize> {
        let q = fold(query);
        if q.is_empty() {
            return (0..self.entries.len().min(limit)).collect();
        }
        // 0: the id itself; 1: an id or name starting with the query; 2: containing it.
        let mut ranked: Vec<(u8, usize)> = Vec::new();
        for (i, e) in self.entries.iter().enumerate() {
            let rank = if e.id == q {
                0
            } else if e.id.starts_with(&q) || e.names.iter().any(|n| n.starts_with(&q)) {
                1
            } else if e.id.contains(&q) || e.names.iter().any(|n| n.contains(&q)) {
                2
            } else {
                continue;
            };
            ranked.push((rank, i));
        }
        ranked.sort_unstable();
        ranked.into_iter().take(limit).map(|(_, i)| i).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding_ignores_case_width_and_kana_script() {
        assert_eq!(fold("  Ｌａｎｔｅｒｎ　IMP "), "lantern imp");
        assert_eq!(fold("ちょうちん"), fold("チョウチン"));
        assert_eq!(fold("ＪＤ０１"), "jd01");
    }

    #[test]
    fn an_exact_id_comes_first_then_prefixes_then_the_rest() {
        let cat = Catalogue::builtin(cards::core::GameId::Jaken).unwrap();
        let index = SearchIndex::new(&cat);
        let hits = index.search("JD1", 50);
        assert!(
            hits.iter().all(|&i| cat.cards[i].id.starts_with("JD1")
                || fold(&cat.cards[i].name_en).contains("jd1"))
        );
        let exact = index.search("jd10", 5);
        assert_eq!(cat.cards[exact[0]].id, "JD10");
        // A part of a Japanese name.
        let imp = cat.card("JD01").unwrap();
        let part: String = imp.name_ja.chars().skip(1).collect();
        assert!(
            index
                .search(&part, 50)
                .iter()
                .any(|&i| cat.cards[i].id == "JD01")
        );
        assert!(index.search("no such card at all", 50).is_empty());
        assert_eq!(index.search("", 3), [0, 1, 2]);
    }
}
