//! `vectors.bin`: one embedding per distinct segment text, keyed by `TextHash`, appended during
//! ingest (copies of a paragraph under several labels share one row). Layout: magic `DCV3`, u32
//! LE dimensions, the 16-byte id of the model that made the vectors, then rows of (u64 BE text
//! hash, f32 LE × dims). The previous generation's file doubles as the embedding cache of the
//! next ingest, for the same model only. A server maps the file (`MappedVectors`): rows are read
//! in place, never copied whole into memory.

use crate::files::VECTORS_FILE;
use std::collections::HashMap;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::ops::Range;
use std::os::unix::fs::FileExt;
use std::path::Path;

use memmap2::Mmap;

use super::encoded::map_for_lookups;
use super::{io_error, StoreError};
use drugcite_core::domain::TextHash;

const MAGIC: &[u8; 4] = b"DCV3";
const KEY_BYTES: usize = 8;
const HEADER_BYTES: u64 = 24;

/// Which vectors can be compared: the model that made them and their length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VectorSpace {
    pub model_id: [u8; 16],
    pub dimensions: usize,
}

impl VectorSpace {
    /// The model id as files outside the index record it (`search/section-prototypes.json`):
    /// 32 lowercase hex digits.
    pub fn model_id_hex(&self) -> String {
        format!("{:032x}", u128::from_be_bytes(self.model_id))
    }
}

pub struct VectorWriter {
    file: BufWriter<File>,
}

impl VectorWriter {
    pub fn create(path: &Path, space: VectorSpace) -> Result<Self, StoreError> {
        let file = File::create(path).map_err(io_error(format!("creating {}", path.display())))?;
        let mut file = BufWriter::new(file);
        file.write_all(MAGIC)
            .and_then(|()| file.write_all(&(space.dimensions as u32).to_le_bytes()))
            .and_then(|()| file.write_all(&space.model_id))
            .map_err(io_error("writing vectors"))?;
        Ok(Self { file })
    }

    /// Continues a copy of `base`'s vectors file at `path` (an incremental update); the base
    /// must hold vectors of `space`.
    pub fn extend(path: &Path, base: &Path, space: VectorSpace) -> Result<Self, StoreError> {
        let mut reader =
            File::open(base).map_err(io_error(format!("opening {}", base.display())))?;
        if read_header(&mut reader, base)? != space {
            return Err(StoreError::Corrupt {
                path: base.display().to_string(),
                reason: "vectors of another model: run a full ingest".into(),
            });
        }
        std::fs::copy(base, path).map_err(io_error(format!("copying {}", base.display())))?;
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(io_error(format!("opening {}", path.display())))?;
        Ok(Self {
            file: BufWriter::new(file),
        })
    }

    pub fn append(&mut self, text: TextHash, vector: &[f32]) -> Result<(), StoreError> {
        self.file
            .write_all(&text.get().to_be_bytes())
            .map_err(io_error("writing vectors"))?;
        for value in vector {
            self.file
                .write_all(&value.to_le_bytes())
                .map_err(io_error("writing vectors"))?;
        }
        Ok(())
    }

    pub fn finish(self) -> Result<(), StoreError> {
        let file = self
            .file
            .into_inner()
            .map_err(|e| io_error("flushing vectors")(e.into_error()))?;
        file.sync_all().map_err(io_error("syncing vectors"))
    }
}

fn row_bytes(dimensions: usize) -> usize {
    KEY_BYTES + 4 * dimensions
}

fn read_header(file: &mut impl Read, path: &Path) -> Result<VectorSpace, StoreError> {
    let mut header = [0u8; HEADER_BYTES as usize];
    file.read_exact(&mut header)
        .map_err(io_error(format!("reading {}", path.display())))?;
    if &header[..4] != MAGIC {
        return Err(StoreError::Corrupt {
            path: path.display().to_string(),
            reason: "not a vectors file".into(),
        });
    }
    let mut model_id = [0u8; 16];
    model_id.copy_from_slice(&header[8..]);
    Ok(VectorSpace {
        model_id,
        dimensions: u32::from_le_bytes([header[4], header[5], header[6], header[7]]) as usize,
    })
}

fn row_key(row: &[u8]) -> TextHash {
    let mut key = [0u8; KEY_BYTES];
    key.copy_from_slice(&row[..KEY_BYTES]);
    TextHash::from_stored(u64::from_be_bytes(key))
}

fn decode_row(row: &[u8]) -> (TextHash, Vec<f32>) {
    let vector = row[KEY_BYTES..]
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    (row_key(row), vector)
}

/// The embeddings of a generation read whole: one row-major unit vector per text.
#[cfg(test)]
pub(crate) struct StoredVectors {
    pub space: VectorSpace,
    pub texts: Vec<TextHash>,
    pub matrix: Vec<f32>,
}

/// Every row of a vectors file, read into memory (what the mapped reader is tested against).
#[cfg(test)]
pub(crate) fn read_all(path: &Path) -> Result<StoredVectors, StoreError> {
    let file = File::open(path).map_err(io_error(format!("opening {}", path.display())))?;
    let mut reader = BufReader::with_capacity(1 << 20, file);
    let space = read_header(&mut reader, path)?;
    let (mut texts, mut matrix) = (Vec::new(), Vec::new());
    let mut row = vec![0u8; row_bytes(space.dimensions)];
    loop {
        match reader.read_exact(&mut row) {
            Ok(()) => {
                let (text, vector) = decode_row(&row);
                texts.push(text);
                matrix.extend(vector);
            }
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => break,
            Err(e) => return Err(io_error(format!("reading {}", path.display()))(e)),
        }
    }
    Ok(StoredVectors {
        space,
        texts,
        matrix,
    })
}

/// Rows read per `pread` when a range of rows is streamed.
const STREAM_ROWS: usize = 256;

/// A generation's vectors file mapped read-only: a row is decoded where it lies, so the f32
/// matrix costs the process only the pages of the rows it reads. A pass over many rows
/// (`stream`) reads the file instead, which leaves the map's pages untouched.
pub struct MappedVectors {
    space: VectorSpace,
    file: File,
    map: Mmap,
    rows: usize,
}

impl MappedVectors {
    /// The vectors file at `path`, mapped; its header names the model that wrote it.
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        let mut file = File::open(path).map_err(io_error(format!("opening {}", path.display())))?;
        let space = read_header(&mut file, path)?;
        // Re-scoring reads scattered rows.
        let map = map_for_lookups(&file, path)?;
        let body = map.len().saturating_sub(HEADER_BYTES as usize);
        Ok(Self {
            space,
            file,
            rows: body / row_bytes(space.dimensions),
            map,
        })
    }

    pub fn space(&self) -> VectorSpace {
        self.space
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Row `row` read where it lies in the map, without a copy: on a little-endian machine the
    /// file's f32 are the memory's, and every row starts 4-byte aligned. `None` elsewhere.
    pub fn row_in_place(&self, row: usize) -> Option<&[f32]> {
        if cfg!(target_endian = "big") {
            return None;
        }
        bytemuck::try_cast_slice(self.row_bytes(row)).ok()
    }

    /// Asks the CPU to start loading row `row` into cache (a hint: a scattered re-scoring
    /// then waits for one row's memory at a time, not every row's in turn).
    pub fn prefetch_row(&self, row: usize) {
        #[cfg(target_arch = "x86_64")]
        for line in self.row_bytes(row).chunks(64) {
            // SAFETY: a prefetch only hints; the address lies inside the map.
            unsafe {
                use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
                _mm_prefetch::<_MM_HINT_T0>(line.as_ptr().cast());
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = row;
    }

    fn row_bytes(&self, row: usize) -> &[u8] {
        let start = HEADER_BYTES as usize + row * row_bytes(self.space.dimensions) + KEY_BYTES;
        &self.map[start..start + 4 * self.space.dimensions]
    }

    /// Decodes row `row` into `out` (`dimensions` long).
    pub fn read_row(&self, row: usize, out: &mut [f32]) {
        let bytes = self.row_bytes(row);
        for (value, c) in out.iter_mut().zip(bytes.chunks_exact(4)) {
            *value = f32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        }
    }

    /// Calls `visit(row, text, vector)` for each row of `rows`, in order, read from the file.
    pub fn stream(
        &self,
        rows: Range<usize>,
        mut visit: impl FnMut(usize, TextHash, &[f32]),
    ) -> Result<(), StoreError> {
        let bytes_per_row = row_bytes(self.space.dimensions);
        let mut buffer = vec![0u8; STREAM_ROWS * bytes_per_row];
        let mut vector = vec![0f32; self.space.dimensions];
        let mut row = rows.start;
        while row < rows.end {
            let count = STREAM_ROWS.min(rows.end - row);
            let chunk = &mut buffer[..count * bytes_per_row];
            let offset = HEADER_BYTES + (row * bytes_per_row) as u64;
            self.file
                .read_exact_at(chunk, offset)
                .map_err(io_error("reading vectors"))?;
            for (i, bytes) in chunk.chunks_exact(bytes_per_row).enumerate() {
                for (value, c) in vector.iter_mut().zip(bytes[KEY_BYTES..].chunks_exact(4)) {
                    *value = f32::from_le_bytes([c[0], c[1], c[2], c[3]]);
                }
                visit(row + i, row_key(bytes), &vector);
            }
            row += count;
        }
        Ok(())
    }
}

/// Embeddings of an earlier generation, read on demand by text hash.
pub struct VectorCache {
    file: File,
    dimensions: usize,
    offsets: HashMap<TextHash, u64>,
}

impl VectorCache {
    /// The cache in `generation`, if it holds vectors of the same `space` (same model).
    pub fn open(generation: &Path, space: VectorSpace) -> Option<Self> {
        let path = generation.join(VECTORS_FILE);
        let mut reader = BufReader::with_capacity(1 << 20, File::open(&path).ok()?);
        if read_header(&mut reader, &path).ok()? != space {
            return None;
        }
        let dimensions = space.dimensions;
        let mut offsets = HashMap::new();
        let mut row = vec![0u8; row_bytes(dimensions)];
        let mut offset = HEADER_BYTES;
        while reader.read_exact(&mut row).is_ok() {
            offsets.insert(row_key(&row), offset);
            offset += row.len() as u64;
        }
        let file = File::open(&path).ok()?;
        Some(Self {
            file,
            dimensions,
            offsets,
        })
    }

    /// Every text the cache holds a vector of.
    pub fn texts(&self) -> impl Iterator<Item = TextHash> + '_ {
        self.offsets.keys().copied()
    }

    pub fn get(&self, text: TextHash) -> Option<Vec<f32>> {
        let offset = *self.offsets.get(&text)?;
        let mut row = vec![0u8; row_bytes(self.dimensions)];
        self.file.read_exact_at(&mut row, offset).ok()?;
        Some(decode_row(&row).1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_rows_read_back_and_serve_as_a_cache() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(VECTORS_FILE);
        let texts: Vec<TextHash> = (0..3).map(|i| TextHash::of(&i.to_string())).collect();
        let space = VectorSpace {
            model_id: [7; 16],
            dimensions: 2,
        };
        let mut writer = VectorWriter::create(&path, space).unwrap();
        for (i, text) in texts.iter().enumerate() {
            writer.append(*text, &[i as f32, -(i as f32)]).unwrap();
        }
        writer.finish().unwrap();
        let stored = read_all(&path).unwrap();
        assert_eq!(stored.space, space);
        assert_eq!(stored.texts, texts);
        assert_eq!(stored.matrix, [0.0, -0.0, 1.0, -1.0, 2.0, -2.0]);
        let cache = VectorCache::open(dir.path(), space).unwrap();
        assert_eq!(cache.get(texts[2]), Some(vec![2.0, -2.0]));
        assert_eq!(cache.get(TextHash::of("z")), None);
        let other_model = VectorSpace {
            model_id: [8; 16],
            ..space
        };
        assert!(
            VectorCache::open(dir.path(), other_model).is_none(),
            "other model: no reuse"
        );
    }

    #[test]
    fn the_mapped_reader_gives_every_row_the_in_memory_reader_gives() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(VECTORS_FILE);
        let space = VectorSpace {
            model_id: [3; 16],
            dimensions: 5,
        };
        let rows = 2 * STREAM_ROWS + 7;
        let mut writer = VectorWriter::create(&path, space).unwrap();
        for row in 0..rows {
            let vector: Vec<f32> = (0..5).map(|d| (row * 5 + d) as f32 / 3.0 - 40.0).collect();
            writer
                .append(TextHash::of(&row.to_string()), &vector)
                .unwrap();
        }
        writer.finish().unwrap();
        let stored = read_all(&path).unwrap();
        let mapped = MappedVectors::open(&path).unwrap();
        assert_eq!((mapped.space(), mapped.rows()), (space, rows));
        let mut vector = [0f32; 5];
        for (row, want) in stored.matrix.chunks_exact(5).enumerate() {
            mapped.read_row(row, &mut vector);
            assert_eq!(vector, want, "row {row}");
            if cfg!(target_endian = "little") {
                assert_eq!(mapped.row_in_place(row), Some(want), "row {row} in place");
            }
        }
        let (mut texts, mut matrix) = (Vec::new(), Vec::new());
        let mut next = 3;
        mapped
            .stream(3..rows, |row, text, vector| {
                assert_eq!(row, next);
                next += 1;
                texts.push(text);
                matrix.extend_from_slice(vector);
            })
            .unwrap();
        assert_eq!(texts, stored.texts[3..]);
        assert_eq!(matrix, stored.matrix[15..]);
    }
}
