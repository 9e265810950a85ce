//! Choosing GPUs and telling where values live, on any machine: with no GPU (or
//! without the `gpu` feature) every GPU request is a clear error and values stay on
//! the CPU; with GPUs the same requests succeed.

use crate::common;

use common::keys;
use gpufhe::prelude::*;
use gpufhe::{
    get_number_of_gpus, Device, Error, FheBool, FheUint8, GpuIndex, GpuSelection, ServerKey,
};

#[test]
fn gpu_indices_are_checked_against_the_visible_gpus() {
    let count = get_number_of_gpus();
    assert_eq!(GpuIndex::new(3).get(), 3);
    assert_eq!(GpuIndex::new(3).to_string(), "GPU 3");
    for i in 0..count {
        assert_eq!(GpuIndex::try_new(i).unwrap(), GpuIndex::new(i));
    }
    assert!(GpuIndex::try_new(count).is_none());
    let err = GpuIndex::checked(count).unwrap_err();
    assert!(matches!(err, Error::NoCudaDevice(_)), "{err}");
    let text = err.to_string();
    assert!(text.starts_with("no CUDA device available"), "{text}");
    assert!(
        text.contains(&format!(
            "GPU {count} requested, but {count} GPU(s) are visible"
        )),
        "{text}"
    );
    if cfg!(not(feature = "gpu")) {
        assert_eq!(count, 0);
        assert!(text.contains("without the `gpu` feature"), "{text}");
    }
}

#[test]
fn selections_accept_one_gpu_or_lists() {
    let one: GpuSelection = GpuIndex::new(1).into();
    assert_eq!(one.gpus(), &[GpuIndex::new(1)]);
    let list = vec![GpuIndex::new(0), GpuIndex::new(2)];
    let from_vec: GpuSelection = list.clone().into();
    let from_slice: GpuSelection = list.as_slice().into();
    let from_array: GpuSelection = [GpuIndex::new(0), GpuIndex::new(2)].into();
    assert_eq!(from_vec.gpus(), list.as_slice());
    assert_eq!(from_slice, from_vec);
    assert_eq!(from_array, from_vec);
}

#[test]
fn bad_selections_are_errors_that_say_why() {
    let (_, compressed, _) = keys();
    let err = compressed
        .try_decompress_to_specific_gpu(Vec::<GpuIndex>::new())
        .unwrap_err();
    assert!(err.to_string().contains("no GPU selected"), "{err}");
    let err = compressed
        .try_decompress_to_specific_gpu([GpuIndex::new(0), GpuIndex::new(0)])
        .unwrap_err();
    assert!(err.to_string().contains("GPU 0 is selected twice"), "{err}");
    let missing = get_number_of_gpus();
    let err = compressed
        .try_decompress_to_specific_gpu(GpuIndex::new(missing))
        .unwrap_err();
    assert!(matches!(err, Error::NoCudaDevice(_)), "{err}");
    assert!(
        err.to_string()
            .contains(&format!("GPU {missing} requested")),
        "{err}"
    );
}

#[test]
fn decompress_to_gpu_uses_every_gpu_or_says_there_is_none() {
    let (_, compressed, _) = keys();
    match get_number_of_gpus() {
        0 => {
            let err = compressed.try_decompress_to_gpu().unwrap_err();
            assert!(matches!(err, Error::NoCudaDevice(_)), "{err}");
            let text = err.to_string();
            assert!(
                text.contains("decompress_to_gpu needs at least one GPU"),
                "{text}"
            );
            assert!(text.contains("use decompress()"), "{text}");
        }
        n => {
            let key: ServerKey = compressed.try_decompress_to_gpu().unwrap();
            let gpus: Vec<GpuIndex> = (0..n).map(GpuIndex::new).collect();
            assert_eq!(key.gpus(), gpus);
            assert!(format!("{key:?}").contains("Gpu {"), "{key:?}");
        }
    }
    assert!(compressed.decompress().gpus().is_empty());
}

#[test]
fn values_live_on_the_cpu_until_a_gpu_key_computes_on_them() {
    let (client_key, _, server_key) = keys();
    gpufhe::set_server_key(server_key.clone());
    let mut x = FheUint8::encrypt(200u8, client_key);
    let mut flag = FheBool::encrypt(true, client_key);
    let mut trivial = FheUint8::encrypt_trivial(9u8);
    assert_eq!(x.current_device(), Device::Cpu);
    assert_eq!(flag.current_device(), Device::Cpu);
    assert_eq!(trivial.current_device(), Device::Cpu);
    assert_eq!(Device::Cpu.to_string(), "CPU");
    assert_eq!(Device::CudaGpu(GpuIndex::new(1)).to_string(), "GPU 1");

    // Moving to the CPU does nothing.
    x.move_to_device(Device::Cpu).unwrap();
    flag.move_to_device(Device::Cpu).unwrap();
    trivial.move_to_device(Device::Cpu).unwrap();
    assert_eq!(FheDecrypt::<u8>::decrypt(&x, client_key), 200);
    assert!(flag.decrypt(client_key));
    assert_eq!(trivial.try_decrypt_trivial::<u8>().unwrap(), 9);

    // A GPU that does not exist is an error, and the value stays where it was.
    let missing = Device::CudaGpu(GpuIndex::new(get_number_of_gpus()));
    for err in [
        x.move_to_device(missing).unwrap_err(),
        flag.move_to_device(missing).unwrap_err(),
        trivial.move_to_device(missing).unwrap_err(),
    ] {
        assert!(matches!(err, Error::NoCudaDevice(_)), "{err}");
    }
    assert_eq!(x.current_device(), Device::Cpu);
    // Results of a CPU key stay on the CPU.
    let y = &x + 1u8;
    assert_eq!(y.current_device(), Device::Cpu);
    assert_eq!(FheDecrypt::<u8>::decrypt(&y, client_key), 201);
}
