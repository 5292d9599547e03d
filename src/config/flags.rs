//! Which flags of a command the settings file and the DRUGCITE_* variables may set, and which
//! are on/off switches. Reads clap's description; sets nothing.

use clap::{Arg, ArgAction};

/// An option a file or variable may set: named, not help or version, not a positional.
pub fn is_setting(arg: &Arg) -> bool {
    arg.get_long().is_some()
        && !matches!(
            arg.get_action(),
            ArgAction::Help | ArgAction::HelpLong | ArgAction::HelpShort | ArgAction::Version
        )
        && arg.get_id() != "config"
}

/// An on/off flag (no value on the command line).
pub fn is_switch(arg: &Arg) -> bool {
    matches!(arg.get_action(), ArgAction::SetTrue)
}
