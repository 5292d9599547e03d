//! Test fixtures of the source readers: small archives (tar, gzip, xz, zip) built in memory
//! and every record of a file read back with its position and skip reason. Tests only; reads
//! nothing but the files the tests write.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU64;
use std::sync::Arc;

use lzma_rust2::{XzOptions, XzWriter};
use tar::{Builder, Header};

use super::files::read_file;
use super::record::RawRecord;

/// The smallest SPL document that reads: its set id and nothing else.
pub fn spl(set_id: &str) -> Vec<u8> {
    format!("<document><setId root='{set_id}'/></document>").into_bytes()
}

/// A tar of `files` (name, bytes) after a folder entry and with a symbolic link at the end.
pub fn tar_of(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut tar = Builder::new(Vec::new());
    let mut folder = Header::new_gnu();
    folder.set_entry_type(tar::EntryType::Directory);
    folder.set_mode(0o755);
    folder.set_size(0);
    tar.append_data(&mut folder, "spl-common/", std::io::empty())
        .unwrap();
    for (name, bytes) in files {
        let mut header = Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        tar.append_data(&mut header, name, *bytes).unwrap();
    }
    let mut link = Header::new_gnu();
    link.set_entry_type(tar::EntryType::Symlink);
    link.set_size(0);
    tar.append_link(&mut link, "spl-common/link.xml", "b.xml")
        .unwrap();
    tar.into_inner().unwrap()
}

pub fn gz(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), Default::default());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}

pub fn xz(bytes: &[u8]) -> Vec<u8> {
    let mut xz = XzWriter::new(Vec::new(), XzOptions::with_preset(1)).unwrap();
    xz.write_all(bytes).unwrap();
    xz.finish().unwrap()
}

pub fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// A record's position after the directory, with its reason key when it was skipped.
pub type ReadRecord = (String, Option<&'static str>);

/// Every record of `path` as read, and how reading the file ended.
pub fn read_all(path: &Path) -> (Vec<ReadRecord>, Result<(), String>) {
    let mut records = Vec::new();
    let ended = read_file(path, &Arc::new(AtomicU64::new(0)), &mut |r: RawRecord| {
        let position = r.position.rsplit('/').next().unwrap().to_owned();
        records.push((position, r.value.err().map(|e| e.reason_key)));
        Ok(())
    });
    (records, ended.map_err(|e| e.to_string()))
}

/// A zip of `files` (name, bytes), deflated.
pub fn zip_of(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, bytes) in files {
        zip.start_file(*name, zip::write::SimpleFileOptions::default())
            .unwrap();
        zip.write_all(bytes).unwrap();
    }
    zip.finish().unwrap().into_inner()
}
