//! The config file: one TOML file in the platform's config folder
//! (`~/.config/tableside/tableside.toml` on Linux; `TABLESIDE_CONFIG` or `--config` choose
//! another). Every key is optional; a missing file means the embedded defaults. Command-line
//! flags win over the file.
//!
//! ```toml
//! [data]
//! dir = "/var/lib/tableside"      # the match database folder
//!
//! [ui]
//! language = "ja"                 # ja | en
//! kiosk = true                    # full screen, touch first
//!
//! [devices]
//! tower = "auto"                  # auto | none | a serial port path
//! tower_mode = "framed"           # framed | line (a printing tower: needs a port path)
//! camera = "none"                 # none | /dev/videoN | frames:<dir>[@fps] (a recording)
//!
//! [gpio]                          # the Pi's button/LED panel (build feature `gpio`)
//! enabled = true
//! debounce_ms = 30
//! buttons = { next = 17, confirm = 27, undo = 22, roll = 23 }
//! leds = { tower = 5, camera = 6, refused = 13 }
//!
//! [rules.jaken]                   # house rules per game (keys of the game's settings)
//! settlement = "parent-first"
//!
//! [club]                          # optional: push every match to the club server (docs/club.md)
//! url = "https://club.example.org"
//! token = "tsk_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
//! ```
//!
//! `tableside config check` loads the file and names its first problem by line and field.

use crate::dice::{TowerChoice, TowerMode};
use hardware::gpio::GpioConfig;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The environment variable naming the config file.
pub const CONFIG_ENV: &str = "TABLESIDE_CONFIG";

/// File name inside the config folder.
pub const FILE_NAME: &str = "tableside.toml";

/// A problem in the config file, located to the line and field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{column}: {message}")]
pub struct ConfigError {
    /// The file.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong (naming the field).
    pub message: String,
}

/// `[data]`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Data {
    /// The match database folder.
    pub dir: Option<PathBuf>,
}

/// `[ui]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Ui {
    /// `ja` or `en`.
    pub language: String,
    /// Full-screen touch kiosk.
    pub kiosk: bool,
}

impl Default for Ui {
    fn default() -> Ui {
        Ui {
            language: "ja".into(),
            kiosk: false,
        }
    }
}

/// `[devices]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Devices {
    /// `auto`, `none` or a serial port path.
    pub tower: String,
    /// `framed` (the protocol of `PROTOCOL.md`) or `line` (a tower that prints `ROLL d6 4`
    /// lines; needs a port path).
    pub tower_mode: String,
    /// `none`, a V4L2 device path (`/dev/video0`) or a recording (`frames:<dir>[@fps]`).
    pub camera: String,
}

impl Default for Devices {
    fn default() -> Devices {
        Devices {
            tower: "none".into(),
            tower_mode: "framed".into(),
            camera: "none".into(),
        }
    }
}

/// `[club]`: the club server this kiosk pushes its matches to (`crate::sync`).
///
/// The token is a secret: it is never printed. Written out (`tableside config check`) or
/// debug-printed, it reads `(hidden: N characters)`, which is no token, so a copy of the
/// printed settings cannot be used in its place either.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Club {
    /// The server's address, `https://…` (or `http://` on a trusted network).
    pub url: String,
    /// The kiosk's token, printed once by `tableside-club kiosk add NAME`.
    #[serde(serialize_with = "hidden")]
    pub token: String,
}

impl Club {
    /// What is shown in place of the token.
    pub fn token_hidden(&self) -> String {
        format!("(hidden: {} characters)", self.token.chars().count())
    }
}

fn hidden<S: serde::Serializer>(token: &str, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&format!("(hidden: {} characters)", token.chars().count()))
}

impl std::fmt::Debug for Club {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Club")
            .field("url", &self.url)
            .field("token", &self.token_hidden())
            .finish()
    }
}

/// The whole file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// `[data]`.
    pub data: Data,
    /// `[ui]`.
    pub ui: Ui,
    /// `[devices]`.
    pub devices: Devices,
    /// `[gpio]`.
    pub gpio: GpioConfig,
    /// `[rules.<game>]`: house rules per game id, as the game's settings keys.
    pub rules: BTreeMap<String, toml::Table>,
    /// `[club]`: absent when the kiosk plays alone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub club: Option<Club>,
}

fn locate(file: &str, text: &str, offset: usize, message: String) -> ConfigError {
    let (line, column) = cards::catalogue::line_col(text, offset);
    ConfigError {
        file: file.to_owned(),
        line,
        column,
        message,
    }
}

fn offset_of(text: &str, key: &str) -> usize {
    let mut pos = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim_start();
        if let Some(rest) = t.strip_prefix(key)
            && rest.trim_start().starts_with('=')
        {
            return pos + line.len() - t.len();
        }
        pos += line.len();
    }
    0
}

/// The section a line of the file is in (`[ui]`, `[rules.jaken]`), from the last header above
/// `offset`; empty before the first header.
fn section_at(text: &str, offset: usize) -> String {
    let mut section = String::new();
    let mut pos = 0;
    for line in text.split_inclusive('\n') {
        if pos > offset {
            break;
        }
        let t = line.trim();
        if let Some(name) = t.strip_prefix('[').and_then(|r| r.split(']').next()) {
            section = name.trim_matches('[').trim().to_owned();
        }
        pos += line.len();
    }
    section
}

/// The settings each section of the file takes.
fn known_keys(section: &str) -> Option<&'static [&'static str]> {
    Some(match section {
        "" => &["data", "ui", "devices", "gpio", "rules"],
        "data" => &["dir"],
        "ui" => &["language", "kiosk"],
        "devices" => &["tower", "camera"],
        "gpio" => &["enabled", "debounce_ms", "buttons", "leds"],
        _ => return None,
    })
}

/// A TOML or serde message in the user's terms: which setting, what it takes, what to write
/// instead ("`langauge` is not a setting of [ui]; write one of: language, kiosk").
fn in_users_terms(message: &str, section: &str) -> String {
    let place = if section.is_empty() {
        "the file".to_owned()
    } else {
        format!("[{section}]")
    };
    if let Some(rest) = message.strip_prefix("unknown field `") {
        let key = rest.split('`').next().unwrap_or_default();
        let known = known_keys(section)
            .map(|k| k.join(", "))
            .or_else(|| {
                // `expected one of `a`, `b`` / `expected `a` or `b``, as serde lists them.
                let expected = rest.split_once("expected")?.1;
                let names: Vec<&str> = expected
                    .split('`')
                    .enumerate()
                    .filter(|(i, _)| i % 2 == 1)
                    .map(|(_, n)| n)
                    .collect();
                (!names.is_empty()).then(|| names.join(", "))
            })
            .unwrap_or_default();
        return format!("`{key}` is not a setting of {place} (a typo?); write one of: {known}");
    }
    let wanted = |what: &str| -> Option<&'static str> {
        Some(match what {
            w if w.contains("bool") => "true or false, without quotes",
            w if w.contains("u8")
                || w.contains("u16")
                || w.contains("u32")
                || w.contains("u64")
                || w.contains("i32")
                || w.contains("i64")
                || w.contains("integer") =>
            {
                "a whole number, without quotes (e.g. 30)"
            }
            w if w.contains("string") || w.contains("path") => {
                "text in double quotes (e.g. \"ja\")"
            }
            w if w.contains("map") || w.contains("struct") || w.contains("table") => {
                "a table of settings (e.g. { next = 17 })"
            }
            _ => return None,
        })
    };
    if let Some(rest) = message.strip_prefix("invalid type: ")
        && let Some((found, expected)) = rest.split_once(", expected ")
        && let Some(want) = wanted(expected)
    {
        return format!("this setting of {place} takes {want}, not {found}");
    }
    format!("{place}: {message} (each line is `name = value`; text goes in double quotes)")
}

impl Config {
    /// Parses and checks a config file's text; `file` names it in errors.
    ///
    /// Every problem is said in the user's terms: the setting, what it takes and what to write
    /// instead; an unknown setting is refused with the section's known settings listed.
    pub fn parse(file: &str, text: &str) -> Result<Config, ConfigError> {
        let config: Config = toml::from_str(text).map_err(|e| {
            let at = e.span().map_or(0, |s| s.start);
            let message = in_users_terms(e.message(), &section_at(text, at));
            locate(file, text, at, message)
        })?;
        let field = |key: &str, message: String| locate(file, text, offset_of(text, key), message);
        if config.ui.language != "ja" && config.ui.language != "en" {
            return Err(field(
                "language",
                format!(
                    "field `language`: `{}` is not a UI language (ja or en)",
                    config.ui.language
                ),
            ));
        }
        if config.devices.tower.trim().is_empty() {
            return Err(field(
                "tower",
                "field `tower`: give `auto`, `none` or a serial port path".into(),
            ));
        }
        match config.devices.tower_mode.parse::<TowerMode>() {
            Err(e) => return Err(field("tower_mode", format!("field `tower_mode`: {e}"))),
            Ok(mode) => {
                if let Some(Err(e)) = config.tower_choice().map(|t| t.with_mode(mode)) {
                    return Err(field("tower_mode", format!("field `tower_mode`: {e}")));
                }
            }
        }
        if let Err(e) = crate::vision::CameraChoice::parse(&config.devices.camera) {
            return Err(field("camera", format!("field `camera`: {e}")));
        }
        if config.gpio.enabled {
            config
                .gpio
                .check()
                .map_err(|e| field("enabled", format!("[gpio]: {e}")))?;
        }
        if let Some(club) = &config.club {
            crate::sync::check_club(club).map_err(|e| {
                let key = if e.starts_with("field `token`") {
                    "token"
                } else {
                    "url"
                };
                field(key, format!("[club]: {e}"))
            })?;
        }
        for (game, table) in &config.rules {
            let Some(id) = cards::core::GameId::parse(game) else {
                let header = format!("[rules.{game}]");
                return Err(locate(
                    file,
                    text,
                    text.find(&header).unwrap_or(0),
                    format!(
                        "[rules.{game}]: `{game}` is not a game Tableside knows; write one of: {}",
                        cards::core::GameId::ALL
                            .map(cards::core::GameId::as_str)
                            .join(", ")
                    ),
                ));
            };
            let rules = crate::ui::games::of(id).rules;
            let keys = (rules.keys)();
            let header = format!("[rules.{game}]");
            let start = text.find(&header).unwrap_or(0);
            for key in table.keys() {
                if !keys.contains(key) {
                    let at = start + offset_of(&text[start..], key);
                    return Err(locate(
                        file,
                        text,
                        at,
                        format!(
                            "`{key}` is not a house rule of {game} (a typo?); write one of: {}",
                            keys.join(", ")
                        ),
                    ));
                }
            }
            let json = serde_json::to_value(table).unwrap_or_default();
            if let Err(why) = (rules.check)(&json) {
                return Err(locate(
                    file,
                    text,
                    start,
                    format!(
                        "[rules.{game}]: {}",
                        in_users_terms(&why, &format!("rules.{game}"))
                    ),
                ));
            }
        }
        Ok(config)
    }

    /// Reads the config file at `path`; a missing file gives the defaults.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        match std::fs::read_to_string(path) {
            Ok(text) => Config::parse(&path.display().to_string(), &text),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Config::default()),
            Err(e) => Err(ConfigError {
                file: path.display().to_string(),
                line: 0,
                column: 0,
                message: format!("cannot read the config file: {e}"),
            }),
        }
    }

    /// The dice tower the file asks for, in its `tower_mode` (`None` for `none`, or for a
    /// mode that cannot be used; `config check` says why).
    pub fn tower(&self) -> Option<TowerChoice> {
        let mode = self.devices.tower_mode.parse().ok()?;
        self.tower_choice()?.with_mode(mode).ok()
    }

    fn tower_choice(&self) -> Option<TowerChoice> {
        let t = self.devices.tower.trim();
        if t.eq_ignore_ascii_case("none") {
            None
        } else {
            t.parse().ok()
        }
    }

    /// The camera the file asks for (`none` when the value is not one; `config check` says why).
    pub fn camera(&self) -> crate::vision::CameraChoice {
        crate::vision::CameraChoice::parse(&self.devices.camera).unwrap_or_default()
    }

    /// The house rules of a game as the JSON a match header carries (`null` when none).
    pub fn rules_json(&self, game: cards::core::GameId) -> serde_json::Value {
        self.rules
            .get(game.as_str())
            .and_then(|t| serde_json::to_value(t).ok())
            .unwrap_or(serde_json::Value::Null)
    }
}

/// Where the config file is: `flag`, else `$TABLESIDE_CONFIG`, else the platform config folder.
pub fn config_path(flag: Option<&Path>) -> Option<PathBuf> {
    flag.map(Path::to_path_buf)
        .or_else(|| std::env::var_os(CONFIG_ENV).map(PathBuf::from))
        .or_else(|| {
            directories::ProjectDirs::from("", "", "tableside")
                .map(|d| d.config_dir().join(FILE_NAME))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_example_parses() {
        let doc = include_str!("config.rs");
        let example: String = doc
            .lines()
            .skip_while(|l| !l.starts_with("//! ```toml"))
            .skip(1)
            .take_while(|l| !l.starts_with("//! ```"))
            .map(|l| format!("{}\n", l.trim_start_matches("//!").trim_start()))
            .collect();
        let c = Config::parse("example.toml", &example).unwrap();
        assert_eq!(c.ui.language, "ja");
        assert!(c.ui.kiosk && c.gpio.enabled);
        assert_eq!(c.gpio.buttons.undo, 22);
        assert_eq!(c.tower(), Some(TowerChoice::Auto));
        assert_eq!(
            c.rules_json(cards::core::GameId::Jaken)["settlement"],
            "parent-first"
        );
    }

    #[test]
    fn the_club_section_is_checked() {
        let token = format!("tsk_{}", "a".repeat(64));
        let c = Config::parse(
            "c.toml",
            &format!("[club]\nurl = \"https://club.example\"\ntoken = \"{token}\"\n"),
        )
        .unwrap();
        assert_eq!(c.club.unwrap().url, "https://club.example");
        let e =
            Config::parse("c.toml", "[club]\nurl = \"ftp://x\"\ntoken = \"tsk_1\"\n").unwrap_err();
        assert!(e.message.contains("http"), "{e}");
        let e = Config::parse(
            "c.toml",
            &format!("[club]\nurl = \"http://x\"\ntoken = \"{token}\"\nkiosk = \"t1\"\n"),
        )
        .unwrap_err();
        assert!(e.message.contains("kiosk"), "{e}");
        let e = Config::parse(
            "c.toml",
            "[club]\nurl = \"http://club.local\"\ntoken = \"secret\"\n",
        )
        .unwrap_err();
        assert!(e.message.contains("tsk_"), "{e}");
    }

    #[test]
    fn the_club_token_is_never_printed() {
        let token = format!("tsk_{}", "5ec7e7".repeat(10));
        let c = Config::parse(
            "c.toml",
            &format!("[club]\nurl = \"https://club.example\"\ntoken = \"{token}\"\n"),
        )
        .unwrap();
        // What `config check` prints, and a debug print, show the address but not the token.
        let shown = toml::to_string_pretty(&c).unwrap();
        assert!(shown.contains("https://club.example"), "{shown}");
        assert!(shown.contains("(hidden: 64 characters)"), "{shown}");
        let debug = format!("{c:?}");
        for text in [&shown, &debug] {
            assert!(!text.contains("5ec7e7"), "{text}");
        }
        // The printed settings read back are refused: what is shown is no token.
        let e = Config::parse("c.toml", &shown).unwrap_err();
        assert!(e.message.contains("token"), "{e}");
        assert_eq!(c.club.unwrap().token, token, "the token itself is kept");
    }

    #[test]
    fn an_empty_file_is_the_defaults() {
        let c = Config::parse("e.toml", "").unwrap();
        assert_eq!(c, Config::default());
        assert_eq!(c.tower(), None);
        assert!(!c.gpio.enabled);
    }

    #[test]
    fn mistakes_name_line_and_field() {
        let e = Config::parse("c.toml", "[ui]\nlanguage = \"fr\"\n").unwrap_err();
        assert_eq!(e.line, 2, "{e}");
        assert!(e.message.contains("language"), "{e}");
        let e = Config::parse("c.toml", "[ui]\nkiosk = true\nlangauge = \"ja\"\n").unwrap_err();
        assert_eq!(e.line, 3, "{e}");
        assert!(e.message.contains("langauge"), "{e}");
        let e = Config::parse("c.toml", "[gpio]\nenabled = true\nbuttons = { next = 5 }\n")
            .unwrap_err();
        assert!(e.message.contains("pin 5"), "{e}");
        let e = Config::parse("c.toml", "[rules.chess]\nx = 1\n").unwrap_err();
        assert!(e.message.contains("chess"), "{e}");
        let e = Config::parse("c.toml", "[gpio]\ndebounce_ms = \"fast\"\n").unwrap_err();
        assert_eq!(e.line, 2, "{e}");
        let e = Config::parse(
            "c.toml",
            "[devices]\ntower = \"none\"\ncamera = \"/dev/sda\"\n",
        )
        .unwrap_err();
        assert_eq!(e.line, 3, "{e}");
        assert!(e.message.contains("frames:<dir>"), "{e}");
    }

    #[test]
    fn the_tower_mode_selects_a_printing_tower() {
        let c = Config::parse(
            "c.toml",
            "[devices]\ntower = \"/dev/ttyUSB0\"\ntower_mode = \"line\"\n",
        )
        .unwrap();
        assert_eq!(c.tower(), Some(TowerChoice::Line("/dev/ttyUSB0".into())));
        assert_eq!(Config::default().devices.tower_mode, "framed");
        let e = Config::parse(
            "c.toml",
            "[devices]\ntower = \"auto\"\ntower_mode = \"line\"\n",
        )
        .unwrap_err();
        assert_eq!(e.line, 3, "{e}");
        assert!(e.message.contains("give its port"), "{e}");
        let e = Config::parse("c.toml", "[devices]\ntower_mode = \"serial\"\n").unwrap_err();
        assert_eq!(e.line, 2, "{e}");
        assert!(e.message.contains("`serial` is not a tower mode"), "{e}");
    }

    #[test]
    fn house_rules_are_checked_against_the_games_own_keys() {
        let ok = Config::parse("c.toml", "[rules.jaken]\nsettlement = \"net\"\n").unwrap();
        assert_eq!(
            ok.rules_json(cards::core::GameId::Jaken)["settlement"],
            "net"
        );
        let e = Config::parse(
            "c.toml",
            "[ui]\nkiosk = true\n\n[rules.jaken]\nsettlemnt = \"net\"\n",
        )
        .unwrap_err();
        assert_eq!(e.line, 5, "{e}");
        assert!(
            e.message
                .contains("`settlemnt` is not a house rule of jaken"),
            "{e}"
        );
        assert!(
            e.message.contains("settlement"),
            "the known keys are listed: {e}"
        );
        let e = Config::parse("c.toml", "[rules.jaken]\nsettlement = 3\n").unwrap_err();
        assert!(e.message.contains("rules.jaken"), "{e}");
    }

    #[test]
    fn messages_speak_of_settings_not_of_toml() {
        let e = Config::parse("c.toml", "[ui]\nlangauge = \"ja\"\n").unwrap_err();
        assert!(
            e.message.contains("`langauge` is not a setting of [ui]")
                && e.message.contains("language, kiosk"),
            "{e}"
        );
        let e = Config::parse("c.toml", "[ui]\nkiosk = \"yes\"\n").unwrap_err();
        assert!(e.message.contains("true or false"), "{e}");
        let e = Config::parse("c.toml", "[gpio]\ndebounce_ms = \"fast\"\n").unwrap_err();
        assert!(e.message.contains("whole number"), "{e}");
    }

    #[test]
    fn the_camera_is_a_device_a_recording_or_none() {
        use crate::vision::CameraChoice;
        assert_eq!(Config::default().camera(), CameraChoice::None);
        let c = Config::parse("c.toml", "[devices]\ncamera = \"/dev/video0\"\n").unwrap();
        assert_eq!(c.camera(), CameraChoice::Device(0));
        let c = Config::parse("c.toml", "[devices]\ncamera = \"frames:/srv/table@5\"\n").unwrap();
        assert_eq!(
            c.camera(),
            CameraChoice::Frames {
                dir: "/srv/table".into(),
                fps: 5
            }
        );
    }

    #[test]
    fn a_missing_file_is_the_defaults_and_an_unreadable_one_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(
            Config::load(&dir.path().join("none.toml")).unwrap(),
            Config::default()
        );
        let e = Config::load(dir.path()).unwrap_err();
        assert!(e.message.contains("cannot read"), "{e}");
    }
}
