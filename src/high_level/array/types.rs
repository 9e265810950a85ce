//! The names of arrays, as TFHE-rs spells them: per element type an array, a slice
//! and a mutable slice, plain, with `Cpu` in front and (in `gpu`, re-exported by
//! `gpufhe::array` only, as TFHE-rs does) with `Gpu` in front. All of them are
//! [`FheArrayBase`]s, and the three names of one kind are one type.

use super::{ClearId, FheArrayBase};
use crate::high_level::{
    FheBool, FheInt, FheInt128, FheInt16, FheInt2, FheInt256, FheInt32, FheInt4, FheInt64, FheInt8,
    FheUint, FheUint128, FheUint16, FheUint2, FheUint256, FheUint32, FheUint4, FheUint64, FheUint8,
};

/// For each element type (`FheUint32`, or `FheUint<Id>` for the generic names): an
/// array, a slice and a mutable slice under the first three names, the same types
/// under the `Cpu` names and, in the module `gpu`, under the `Gpu` names.
macro_rules! array_names {
    ($($elem:ident$(<$id:ident>)? => $array:ident $slice:ident $slice_mut:ident,
        $cpu_array:ident $cpu_slice:ident $cpu_slice_mut:ident,
        $gpu_array:ident $gpu_slice:ident $gpu_slice_mut:ident;)*) => {
        $(
            #[doc = concat!(
                "An array of [`", stringify!($elem), "`]: it computes wherever the thread's ",
                "server key does (TFHE-rs's array whose backend is chosen at run time)."
            )]
            pub type $array$(<$id>)? = FheArrayBase<Vec<$elem$(<$id>)?>>;
            #[doc = concat!("A slice of a [`", stringify!($array), "`] (see [`FheArrayBase::slice`]).")]
            pub type $slice<'a$(, $id)?> = FheArrayBase<&'a [$elem$(<$id>)?]>;
            #[doc = concat!(
                "A mutable slice of a [`", stringify!($array), "`] (see ",
                "[`FheArrayBase::slice_mut`])."
            )]
            pub type $slice_mut<'a$(, $id)?> = FheArrayBase<&'a mut [$elem$(<$id>)?]>;
            same_types!("the CPU", $cpu_array $cpu_slice $cpu_slice_mut
                = $array $slice $slice_mut $(, $id)?);
        )*

        /// The `Gpu` names of arrays (in `gpufhe::array`, as in TFHE-rs).
        pub(crate) mod gpu {
            use super::*;
            $(same_types!("a GPU", $gpu_array $gpu_slice $gpu_slice_mut
                = $array $slice $slice_mut $(, $id)?);)*
        }
    };
}

/// Other names for an array, a slice and a mutable slice: TFHE-rs's names for the
/// ones computed on `$device`.
macro_rules! same_types {
    ($device:literal, $a:ident $s:ident $sm:ident
        = $array:ident $slice:ident $slice_mut:ident $(, $id:ident)?) => {
        #[doc = concat!(
            "[`", stringify!($array), "`] under TFHE-rs's name for the array on ", $device,
            ": the same type (a gpufhe value computes wherever the thread's server key does)."
        )]
        pub type $a$(<$id>)? = $array$(<$id>)?;
        #[doc = concat!("[`", stringify!($slice), "`] under TFHE-rs's name for ", $device, ".")]
        pub type $s<'a$(, $id)?> = $slice<'a$(, $id)?>;
        #[doc = concat!("[`", stringify!($slice_mut), "`] under TFHE-rs's name for ", $device, ".")]
        pub type $sm<'a$(, $id)?> = $slice_mut<'a$(, $id)?>;
    };
}

array_names! {
    FheUint<Id> => FheUintArray FheUintSlice FheUintSliceMut, CpuFheUintArray CpuFheUintSlice CpuFheUintSliceMut, GpuFheUintArray GpuFheUintSlice GpuFheUintSliceMut;
    FheInt<Id> => FheIntArray FheIntSlice FheIntSliceMut, CpuFheIntArray CpuFheIntSlice CpuFheIntSliceMut, GpuFheIntArray GpuFheIntSlice GpuFheIntSliceMut;
    FheUint2 => FheUint2Array FheUint2Slice FheUint2SliceMut, CpuFheUint2Array CpuFheUint2Slice CpuFheUint2SliceMut, GpuFheUint2Array GpuFheUint2Slice GpuFheUint2SliceMut;
    FheUint4 => FheUint4Array FheUint4Slice FheUint4SliceMut, CpuFheUint4Array CpuFheUint4Slice CpuFheUint4SliceMut, GpuFheUint4Array GpuFheUint4Slice GpuFheUint4SliceMut;
    FheUint8 => FheUint8Array FheUint8Slice FheUint8SliceMut, CpuFheUint8Array CpuFheUint8Slice CpuFheUint8SliceMut, GpuFheUint8Array GpuFheUint8Slice GpuFheUint8SliceMut;
    FheUint16 => FheUint16Array FheUint16Slice FheUint16SliceMut, CpuFheUint16Array CpuFheUint16Slice CpuFheUint16SliceMut, GpuFheUint16Array GpuFheUint16Slice GpuFheUint16SliceMut;
    FheUint32 => FheUint32Array FheUint32Slice FheUint32SliceMut, CpuFheUint32Array CpuFheUint32Slice CpuFheUint32SliceMut, GpuFheUint32Array GpuFheUint32Slice GpuFheUint32SliceMut;
    FheUint64 => FheUint64Array FheUint64Slice FheUint64SliceMut, CpuFheUint64Array CpuFheUint64Slice CpuFheUint64SliceMut, GpuFheUint64Array GpuFheUint64Slice GpuFheUint64SliceMut;
    FheUint128 => FheUint128Array FheUint128Slice FheUint128SliceMut, CpuFheUint128Array CpuFheUint128Slice CpuFheUint128SliceMut, GpuFheUint128Array GpuFheUint128Slice GpuFheUint128SliceMut;
    FheUint256 => FheUint256Array FheUint256Slice FheUint256SliceMut, CpuFheUint256Array CpuFheUint256Slice CpuFheUint256SliceMut, GpuFheUint256Array GpuFheUint256Slice GpuFheUint256SliceMut;
    FheInt2 => FheInt2Array FheInt2Slice FheInt2SliceMut, CpuFheInt2Array CpuFheInt2Slice CpuFheInt2SliceMut, GpuFheInt2Array GpuFheInt2Slice GpuFheInt2SliceMut;
    FheInt4 => FheInt4Array FheInt4Slice FheInt4SliceMut, CpuFheInt4Array CpuFheInt4Slice CpuFheInt4SliceMut, GpuFheInt4Array GpuFheInt4Slice GpuFheInt4SliceMut;
    FheInt8 => FheInt8Array FheInt8Slice FheInt8SliceMut, CpuFheInt8Array CpuFheInt8Slice CpuFheInt8SliceMut, GpuFheInt8Array GpuFheInt8Slice GpuFheInt8SliceMut;
    FheInt16 => FheInt16Array FheInt16Slice FheInt16SliceMut, CpuFheInt16Array CpuFheInt16Slice CpuFheInt16SliceMut, GpuFheInt16Array GpuFheInt16Slice GpuFheInt16SliceMut;
    FheInt32 => FheInt32Array FheInt32Slice FheInt32SliceMut, CpuFheInt32Array CpuFheInt32Slice CpuFheInt32SliceMut, GpuFheInt32Array GpuFheInt32Slice GpuFheInt32SliceMut;
    FheInt64 => FheInt64Array FheInt64Slice FheInt64SliceMut, CpuFheInt64Array CpuFheInt64Slice CpuFheInt64SliceMut, GpuFheInt64Array GpuFheInt64Slice GpuFheInt64SliceMut;
    FheInt128 => FheInt128Array FheInt128Slice FheInt128SliceMut, CpuFheInt128Array CpuFheInt128Slice CpuFheInt128SliceMut, GpuFheInt128Array GpuFheInt128Slice GpuFheInt128SliceMut;
    FheInt256 => FheInt256Array FheInt256Slice FheInt256SliceMut, CpuFheInt256Array CpuFheInt256Slice CpuFheInt256SliceMut, GpuFheInt256Array GpuFheInt256Slice GpuFheInt256SliceMut;
    FheBool => FheBoolArray FheBoolSlice FheBoolSliceMut, CpuFheBoolArray CpuFheBoolSlice CpuFheBoolSliceMut, GpuFheBoolArray GpuFheBoolSlice GpuFheBoolSliceMut;
}

/// An array of clear values: the right operand of elementwise operations with a
/// clear array ([`FheArrayBase::new`] builds one).
pub type ClearArray<T> = FheArrayBase<Vec<T>, ClearId>;
/// A slice of a [`ClearArray`].
pub type ClearSlice<'a, T> = FheArrayBase<&'a [T], ClearId>;
/// A mutable slice of a [`ClearArray`].
pub type ClearSliceMut<'a, T> = FheArrayBase<&'a mut [T], ClearId>;

/// TFHE-rs's identifier type of `FheBool` arrays, for code that names it. This
/// crate types its arrays by their element instead ([`FheBoolArray`] is
/// `FheArrayBase<Vec<FheBool>>`): nothing here takes it.
///
/// ```
/// let _id: gpufhe::FheBoolId = Default::default();
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FheBoolId;
