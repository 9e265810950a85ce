//! Writes the TFHE-rs 1.8.2 golden files that gpufhe's tests read
//! (`tests/data/tfhe-rs-1.8.2/`): a client key of the default configuration made from a
//! fixed seed, values encrypted under it (and their clear values in `clears.txt`),
//! its compact public key and a compact list. Made once and committed; CI never
//! builds this (it compiles TFHE-rs).
//!
//! ```text
//! cd compare && cargo run --release --example tfhers_golden
//! ```

use std::path::Path;
use tfhe::prelude::*;
use tfhe::safe_serialization::safe_serialize;
use tfhe::{
    ClientKey, CompactCiphertextList, CompactPublicKey, CompressedFheUint8, ConfigBuilder,
    FheBool, FheInt8, FheUint8, Seed,
};

const LIMIT: u64 = 1 << 30;

fn write<T: serde::Serialize + tfhe::Versionize + tfhe::named::Named>(
    dir: &Path,
    name: &str,
    value: &T,
) {
    let mut bytes = Vec::new();
    safe_serialize(value, &mut bytes, LIMIT).expect("TFHE-rs serializes its own value");
    std::fs::write(dir.join(name), &bytes).expect("a writable folder");
    println!("{name}: {} bytes", bytes.len());
}

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tfhe-rs-1.8.2");
    std::fs::create_dir_all(&dir).unwrap();
    let config = ConfigBuilder::default().build();
    let client_key = ClientKey::generate_with_seed(config, Seed(0x5eed_0037));
    write(&dir, "client_key-default.bin", &client_key);

    write(&dir, "fhebool-true.bin", &FheBool::encrypt(true, &client_key));
    write(&dir, "fheuint8-165.bin", &FheUint8::encrypt(165u8, &client_key));
    write(&dir, "fheint8-minus-77.bin", &FheInt8::encrypt(-77i8, &client_key));
    write(
        &dir,
        "compressed_fheuint8-42.bin",
        &CompressedFheUint8::encrypt(42u8, &client_key),
    );

    let public_key = CompactPublicKey::new(&client_key);
    write(&dir, "compact_public_key-default.bin", &public_key);
    let list: CompactCiphertextList = CompactCiphertextList::builder(&public_key)
        .push(7u8)
        .push(true)
        .push(-3i8)
        .build();
    write(&dir, "compact_list-7-true-minus-3.bin", &list);

    // Check what was written decrypts as the clear values say (`clears.txt`).
    let read = |name: &str| std::fs::read(dir.join(name)).unwrap();
    let x: FheUint8 =
        tfhe::safe_serialization::safe_deserialize(read("fheuint8-165.bin").as_slice(), LIMIT)
            .unwrap();
    assert_eq!(FheDecrypt::<u8>::decrypt(&x, &client_key), 165);
    std::fs::write(
        dir.join("clears.txt"),
        "fhebool-true.bin true\nfheuint8-165.bin 165\nfheint8-minus-77.bin -77\n\
         compressed_fheuint8-42.bin 42\n\
         compact_list-7-true-minus-3.bin 7 true -3\n",
    )
    .unwrap();
}
