//! Sentences in both languages, for everything the shop reads on the command line and in the
//! server's log: the admin commands' answers and errors, refusals and replay failures.
//!
//! The command line speaks the language of `--lang` (or `TABLESIDE_LANG`, else the locale:
//! `LC_ALL`, `LC_MESSAGES`, `LANG` starting with `ja` is Japanese, anything else English). The
//! server's log lines carry both languages, since whoever reads them later may read either.
//!
//! ```
//! use club::text::{Lang, Text};
//! let t = Text::new("no kiosk `table-9`", "キオスク `table-9` はありません");
//! assert_eq!(t.get(Lang::Ja), "キオスク `table-9` はありません");
//! assert_eq!(t.to_string(), "no kiosk `table-9`");
//! assert_eq!(t.both(), "no kiosk `table-9` / キオスク `table-9` はありません");
//! ```

use std::fmt;

/// A language of the shop's screens and the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    /// 日本語.
    Ja,
    /// English.
    En,
}

/// The environment variable that picks the command line's language (`ja` or `en`), as it does
/// the kiosk window's.
pub const LANG_ENV: &str = "TABLESIDE_LANG";

impl Lang {
    /// `ja` or `en`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::Ja => "ja",
            Lang::En => "en",
        }
    }

    /// Reads `ja`/`en` (and locale names such as `ja_JP.UTF-8`, `en-US`); `None` otherwise.
    pub fn parse(text: &str) -> Option<Lang> {
        let t = text.trim().to_ascii_lowercase();
        if t.starts_with("ja") {
            Some(Lang::Ja)
        } else if t.starts_with("en") {
            Some(Lang::En)
        } else {
            None
        }
    }

    /// The command line's language from the environment: [`LANG_ENV`], else the first of
    /// `LC_ALL`, `LC_MESSAGES`, `LANG` that is set and not empty; Japanese for a `ja…` locale,
    /// English otherwise.
    pub fn from_env() -> Lang {
        let var = |k: &str| std::env::var(k).ok().filter(|v| !v.trim().is_empty());
        if let Some(l) = var(LANG_ENV).as_deref().and_then(Lang::parse) {
            return l;
        }
        ["LC_ALL", "LC_MESSAGES", "LANG"]
            .iter()
            .find_map(|k| var(k))
            .and_then(|v| Lang::parse(&v))
            .unwrap_or(Lang::En)
    }

    /// Picks the English or the Japanese one.
    pub fn pick<T>(self, en: T, ja: T) -> T {
        match self {
            Lang::En => en,
            Lang::Ja => ja,
        }
    }
}

/// One sentence in English and Japanese. Displayed, it is the English one (for logs of other
/// tools); [`Text::get`] gives the reader's, [`Text::both`] both.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Text {
    /// English.
    pub en: String,
    /// 日本語.
    pub ja: String,
}

impl Text {
    /// A sentence from its two languages.
    pub fn new(en: impl Into<String>, ja: impl Into<String>) -> Text {
        Text {
            en: en.into(),
            ja: ja.into(),
        }
    }

    /// The sentence in `lang`.
    pub fn get(&self, lang: Lang) -> &str {
        lang.pick(&self.en, &self.ja)
    }

    /// Both, English first: `English / 日本語`.
    pub fn both(&self) -> String {
        format!("{} / {}", self.en, self.ja)
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.en)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages_read_from_codes_and_locales() {
        assert_eq!(Lang::parse("ja_JP.UTF-8"), Some(Lang::Ja));
        assert_eq!(Lang::parse("en-GB"), Some(Lang::En));
        assert_eq!(Lang::parse("C.UTF-8"), None);
        assert_eq!(Lang::parse(""), None);
    }
}
