//! The GPU twins of the core_crypto algorithms, named `cuda_<cpu name>` at the same
//! relative paths: LWE linear algebra, the keyswitch, the programmable bootstrap
//! (`lwe_programmable_bootstrapping.rs`), its multi-bit form and the 128-bit one of
//! noise squashing (`lwe_programmable_bootstrapping_128.rs`), and the linear
//! combinations of a step; where the bootstraps' kernel is chosen
//! (`bootstrap_kernel_choice.rs`).

pub(crate) mod bootstrap_kernel_choice;
pub(crate) mod linear_combination;
pub(crate) mod lwe_keyswitch;
pub(crate) mod lwe_linear_algebra;
pub(crate) mod lwe_multi_bit_programmable_bootstrapping;
pub(crate) mod lwe_programmable_bootstrapping;
pub(crate) mod lwe_programmable_bootstrapping_128;
