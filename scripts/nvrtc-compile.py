#!/usr/bin/env python3
"""Compiles one CUDA source with NVRTC (libnvrtc, through ctypes) into a cubin
(--arch sm_XY) or NUL-terminated PTX (--arch compute_XY).

The CUDA 12 compiler wheels on PyPI ship NVRTC and ptxas but no nvcc, so build.rs
and scripts/kernel-report.py compile the kernels this way with the pinned wheels of
scripts/install-nvcc.sh. `--version` prints NVRTC's CUDA release ("12.0").
cuda/nvrtc/ stands in for the C++ headers NVRTC lacks.
"""

import argparse
import ctypes
import sys
from pathlib import Path


def nvrtc(path):
    lib = ctypes.CDLL(str(path))
    lib.nvrtcGetErrorString.restype = ctypes.c_char_p
    return lib


def check(lib, status, what):
    if status != 0:
        sys.exit(f"nvrtc-compile: {what}: {lib.nvrtcGetErrorString(status).decode()}")


def version(lib):
    major, minor = ctypes.c_int(), ctypes.c_int()
    check(lib, lib.nvrtcVersion(ctypes.byref(major), ctypes.byref(minor)), "nvrtcVersion")
    return major.value, minor.value


def compile_source(lib, source, arch, includes, extra):
    program = ctypes.c_void_p()
    text = Path(source).read_bytes()
    check(lib, lib.nvrtcCreateProgram(ctypes.byref(program), text, str(source).encode(), 0,
                                      None, None), "nvrtcCreateProgram")
    options = [f"--gpu-architecture={arch}", "-std=c++17", "--device-int128"]
    options += [f"-I{i}" for i in includes] + extra
    array = (ctypes.c_char_p * len(options))(*[o.encode() for o in options])
    status = lib.nvrtcCompileProgram(program, len(options), array)
    size = ctypes.c_size_t()
    lib.nvrtcGetProgramLogSize(program, ctypes.byref(size))
    log = ctypes.create_string_buffer(size.value)
    lib.nvrtcGetProgramLog(program, log)
    if log.value.strip():
        print(log.value.decode(), file=sys.stderr)
    check(lib, status, f"compiling {source} for {arch}")
    get_size, get = ((lib.nvrtcGetCUBINSize, lib.nvrtcGetCUBIN) if arch.startswith("sm_")
                     else (lib.nvrtcGetPTXSize, lib.nvrtcGetPTX))
    check(lib, get_size(program, ctypes.byref(size)), "image size")
    image = ctypes.create_string_buffer(size.value)
    check(lib, get(program, image), "image")
    lib.nvrtcDestroyProgram(ctypes.byref(program))
    return image.raw  # PTX keeps its terminating NUL, as cuModuleLoadData wants it


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nvrtc", required=True, help="path of libnvrtc.so")
    ap.add_argument("--version", action="store_true")
    ap.add_argument("--arch", help="sm_XY (cubin) or compute_XY (PTX)")
    ap.add_argument("-I", dest="includes", action="append", default=[])
    ap.add_argument("-X", dest="extra", action="append", default=[],
                    help="an extra NVRTC option, e.g. -X=--ptxas-options=-v")
    ap.add_argument("-o", dest="output")
    ap.add_argument("source", nargs="?")
    args = ap.parse_args()
    lib = nvrtc(args.nvrtc)
    if args.version:
        print("%d.%d" % version(lib))
        return
    if not (args.arch and args.output and args.source):
        ap.error("--arch, -o and a source are needed")
    root = Path(__file__).resolve().parent.parent
    includes = [str(root / "cuda" / "nvrtc")] + args.includes
    image = compile_source(lib, args.source, args.arch, includes, args.extra)
    Path(args.output).write_bytes(image)


if __name__ == "__main__":
    main()
