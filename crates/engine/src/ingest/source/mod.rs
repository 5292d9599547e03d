//! Input files → a stream of raw records with their positions. Never holds more than one
//! record in memory: JSON Lines are read line by line, `{"meta":…,"results":[…]}` envelopes
//! (and bare arrays) are walked element by element, SPL `.xml` documents one by one, `.zip`
//! files (openFDA bulk files, DailyMed's zip per label and zips of such zips) and tar archives
//! (`.tar`, `.tar.gz`/`.tgz`, `.tar.xz`, streamed) member by member.

mod archive;
mod files;
#[cfg(test)]
mod fixtures;
mod member;
mod record;
mod stream;
mod tarball;
mod xml;

pub use files::{expand_inputs, read_file};
pub use record::RawRecord;
