#!/usr/bin/env python3
"""Checks that binaries hold no instruction beyond their instruction-set tier.

Usage:
  instruction_set_check.py [--objdump PATH] --tier TIER BINARY...   exit 0 if every binary keeps to TIER
  instruction_set_check.py --self-test             the checker flags what it must
  instruction_set_check.py --best-tier             prints the best of x86-64-v3, x86-64-v2 and x86-64
                                                   this processor runs (its /proc/cpuinfo flags and
                                                   its CPUID)
  instruction_set_check.py --host-tier BINARY      exit 0 if `BINARY --version` names that tier
                                                   (a GOBBLET_ARCH=host build)

TIER is CMake's GOBBLET_ARCH. The tiers are x86-64 psABI levels:
  x86-64     SSE2: no SSE3/SSSE3/SSE4, POPCNT, nor anything below
  x86-64-v2  + SSE3, SSSE3, SSE4.1/4.2, POPCNT: no AVX (no VEX/EVEX encoding:
             no v-prefixed instruction, no ymm/zmm), no BMI1/BMI2, LZCNT, MOVBE
  x86-64-v3  + AVX, AVX2, BMI1/2, LZCNT, MOVBE, FMA: no AVX-512 (no zmm, no
             mask registers, no xmm16-31/ymm16-31, no EVEX-only instruction)
  x86-64-v4, native, default: nothing to check (exit 0, saying so)

The binaries are disassembled with objdump (binutils); only their own code
is read: the shared libraries they load (libc, libstdc++, abseil, zstd)
choose their code at run time.
"""
import ctypes
import json
import mmap
import os
import platform
import re
import struct
import subprocess
import sys

# TZCNT is left out on purpose: GCC writes `rep bsf` for a count of trailing
# zeros of a non-zero value at every tier (a BSF on processors without BMI1,
# the same answer), and objdump shows that encoding as tzcnt.
BEYOND_V1 = {
    # SSE3, SSSE3
    "addsubpd", "addsubps", "haddpd", "haddps", "hsubpd", "hsubps", "lddqu", "movddup", "movshdup",
    "movsldup", "pabsb", "pabsd", "pabsw", "palignr", "phaddd", "phaddsw", "phaddw", "phsubd", "phsubsw",
    "phsubw", "pmaddubsw", "pmulhrsw", "pshufb", "psignb", "psignd", "psignw",
    # SSE4.1, SSE4.2, POPCNT
    "blendpd", "blendps", "blendvpd", "blendvps", "dppd", "dpps", "extractps", "insertps", "movntdqa",
    "mpsadbw", "packusdw", "pblendvb", "pblendw", "pcmpeqq", "pextrb", "pextrd", "pextrq", "phminposuw",
    "pinsrb", "pinsrd", "pinsrq", "pmaxsb", "pmaxsd", "pmaxud", "pmaxuw", "pminsb", "pminsd", "pminud",
    "pminuw", "pmovsxbd", "pmovsxbq", "pmovsxbw", "pmovsxdq", "pmovsxwd", "pmovsxwq", "pmovzxbd",
    "pmovzxbq", "pmovzxbw", "pmovzxdq", "pmovzxwd", "pmovzxwq", "pmuldq", "pmulld", "ptest", "roundpd",
    "roundps", "roundsd", "roundss", "crc32", "pcmpestri", "pcmpestrm", "pcmpistri", "pcmpistrm",
    "pcmpgtq", "popcnt",
    # the rest of x86-64-v2 (CMPXCHG16B, LAHF/SAHF in 64-bit mode) and of SSE3
    "cmpxchg16b", "lahf", "sahf", "fisttp", "fisttps", "fisttpl", "fisttpll", "monitor", "mwait",
}
BEYOND_V2 = {
    "andn", "bextr", "blsi", "blsmsk", "blsr", "bzhi", "mulx", "pdep", "pext", "rorx", "sarx", "shlx",
    "shrx", "lzcnt", "movbe",
}
# EVEX-only instructions (AVX-512 families), which can name xmm/ymm
# registers too: by the start of their mnemonic (any operand size). None of
# them starts an AVX or AVX2 mnemonic (vpmovsd/vpmovsq/vpmovsw, not vpmovs:
# vpmovsxbw is AVX2).
BEYOND_V3_PREFIXES = (
    "kmov", "kortest", "kand", "kor", "kxor", "knot", "kshift", "kunpck", "ktest", "kadd",
    "vmovdqu8", "vmovdqu16", "vmovdqu32", "vmovdqu64", "vmovdqa32", "vmovdqa64", "vrcp14", "vrsqrt14",
    "vrcp28", "vrsqrt28", "vscalef", "vgetexp", "vgetmant", "vfixupimm", "vrndscale", "vreduce", "vrange",
    "vpmovm2", "vpmovb2m", "vpmovw2m", "vpmovd2m", "vpmovq2m", "vcvtqq2", "vcvtuqq2", "vcvtpd2qq", "vcvtpd2uqq",
    "vcvtps2qq", "vcvtps2uqq", "vcvttpd2qq", "vcvttpd2uqq", "vcvttps2qq", "vcvttps2uqq", "vcvtudq2",
    "vcvtusi2", "vcvtps2udq", "vcvtpd2udq", "vcvttps2udq", "vcvttpd2udq", "vshuff32x4", "vshuff64x2",
    "vshufi32x4", "vshufi64x2", "vextractf32x", "vextractf64x", "vextracti32x", "vextracti64x", "vinsertf32x",
    "vinsertf64x", "vinserti32x", "vinserti64x", "vbroadcastf32x", "vbroadcastf64x", "vbroadcasti32x",
    "vbroadcasti64x", "vpermw", "vpermb", "vpermt2", "vpermi2", "vpsllvw", "vpsrlvw", "vpsravw", "vpsravq",
    "vpmovdb", "vpmovdw", "vpmovqb", "vpmovqd", "vpmovqw", "vpmovwb", "vpmovsd", "vpmovsq", "vpmovsw", "vpmovus",
    "vpdpbusd", "vpdpwssd", "vpmadd52", "vpshld", "vpshrd", "vpcompress", "vpexpand", "vcompress", "vexpand",
    "vpternlog", "vpopcnt", "vplzcnt", "vpconflict", "valign", "vpblendm", "vblendm", "vptestm", "vptestnm",
    "vfpclass", "vprol", "vpror", "vpabsq", "vpmullq", "vpmaxsq", "vpmaxuq", "vpminsq", "vpminuq", "vpcmpb",
    "vpcmpw", "vpcmpd", "vpcmpq", "vpcmpu",
)
# vpbroadcast from a general register is EVEX-only (AVX2's takes xmm or memory).
BROADCAST_FROM_GPR = re.compile(r"^vpbroadcast[bwdq]$")
GPR_SOURCE = re.compile(r"^%(?:[re]?[abcd]x|[re]?[sd]i|[re]?[sb]p|r\d+[dwb]?|[abcd]l)\b")
HIGH_REGISTER = re.compile(r"%(?:[xy]mm(?:1[6-9]|2\d|3[01])|zmm\d+|k[0-7])\b|\{%k[0-7]\}|\{1to\d+\}")
VEX_REGISTER = re.compile(r"%[yz]mm\d+")


def violation(tier, mnemonic, operands):
    """Why the instruction is beyond the tier, or None."""
    base = mnemonic.split(".")[0]
    if tier == "x86-64-v3":
        if (base.startswith(BEYOND_V3_PREFIXES) or HIGH_REGISTER.search(operands)
                or (BROADCAST_FROM_GPR.match(base) and GPR_SOURCE.match(operands))):
            return "AVX-512 (x86-64-v4)"
        return None
    if base in BEYOND_V2:
        return "BMI1/BMI2/LZCNT/MOVBE (x86-64-v3)"
    if base.startswith("v") or VEX_REGISTER.search(operands):
        return "AVX (VEX/EVEX encoding, x86-64-v3)"
    if tier == "x86-64" and base in BEYOND_V1:
        return "SSE3/SSSE3/SSE4/POPCNT (x86-64-v2)"
    return None


LINE = re.compile(r"^\s*([0-9a-f]+):\s+(?:(?:lock|rep|repz|repnz|repe|repne|data16|notrack|bnd)\s+)*"
                  r"([a-z][a-z0-9.]*)\s*(.*)$")


def check_listing(tier, listing):
    """[(address, instruction, reason)] for the lines of an objdump listing beyond the tier."""
    found = []
    for line in listing.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        reason = violation(tier, m.group(2), m.group(3))
        if reason:
            found.append((m.group(1), (m.group(2) + " " + m.group(3)).strip(), reason))
    return found


# What each tier needs beyond the one below it, the psABI's lists, as
# /proc/cpuinfo spells the flags.
TIER_FLAGS = [
    ("x86-64-v2", {"cx16", "lahf_lm", "popcnt", "pni", "sse4_1", "sse4_2", "ssse3"}),
    ("x86-64-v3", {"avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "abm", "movbe", "xsave"}),
]

# Where CPUID reports each of those flags: (leaf, subleaf, register 0..3 for
# eax, ebx, ecx, edx, bit). A kernel may leave out of /proc/cpuinfo a flag
# the processor has: a virtual machine's listed no `abm` for an AMD EPYC
# whose CPUID says LZCNT to a program (its /dev/cpu/N/cpuid said no too),
# and which ran it. The compiler's __builtin_cpu_supports (the host build's
# probe, the tier launcher) asks the CPUID instruction, so the check asks it
# too, with its own code and table.
CPUID_BITS = {
    "pni": (1, 0, 2, 0), "ssse3": (1, 0, 2, 9), "fma": (1, 0, 2, 12), "cx16": (1, 0, 2, 13),
    "sse4_1": (1, 0, 2, 19), "sse4_2": (1, 0, 2, 20), "movbe": (1, 0, 2, 22), "popcnt": (1, 0, 2, 23),
    "xsave": (1, 0, 2, 26), "avx": (1, 0, 2, 28), "f16c": (1, 0, 2, 29),
    "bmi1": (7, 0, 1, 3), "avx2": (7, 0, 1, 5), "bmi2": (7, 0, 1, 8),
    "lahf_lm": (0x80000001, 0, 2, 0), "abm": (0x80000001, 0, 2, 5),
}
# These use the AVX registers, which the operating system must save: only
# where CPUID says OSXSAVE (leaf 1, ecx bit 27) and XCR0 has the SSE and AVX
# state bits (1 and 2).
AVX_STATE = {"avx", "avx2", "fma", "f16c"}

# CPUID and XGETBV as x86-64 machine code (System V calls), the bytes of
#   cpuid(leaf edi, subleaf esi, words rdx): push rbx; mov r8, rdx; mov eax, edi; mov ecx, esi;
#       cpuid; mov [r8], eax; mov [r8+4], ebx; mov [r8+8], ecx; mov [r8+12], edx; pop rbx; ret
#   xgetbv0(words rdi): xor ecx, ecx; xgetbv; mov [rdi], eax; mov [rdi+4], edx; ret
CPUID_CODE = bytes.fromhex("53 4989d0 89f8 89f1 0fa2 418900 41895804 41894808 4189500c 5b c3")
XGETBV_CODE = bytes.fromhex("31c9 0f01d0 8907 895704 c3")


def cpuid_flags(read, xcr0):
    """The flags of CPUID_BITS that one processor's CPUID reports: `read(leaf, subleaf)` gives its
    (eax, ebx, ecx, edx), `xcr0()` XCR0's low word (asked only where OSXSAVE says it may be). A
    leaf above the processor's highest is not asked (it would answer another leaf's words)."""
    highest = {0: read(0, 0)[0], 0x80000000: read(0x80000000, 0)[0]}
    flags = set()
    for flag, (leaf, subleaf, register, bit) in CPUID_BITS.items():
        if leaf <= highest[leaf & 0x80000000] and read(leaf, subleaf)[register] >> bit & 1:
            flags.add(flag)
    if not (read(1, 0)[2] >> 27 & 1 and xcr0() & 0b110 == 0b110):
        flags -= AVX_STATE
    return flags


def cpuid_here():
    """In this process, CPUID run on each processor it may run on in turn (on the current one only
    where it may not choose): {"vendor": leaf 0's text, "highest": leaf 0's eax, "flags": [each
    one's cpuid_flags, as a sorted list]}; None where the code cannot run here (not x86-64 with
    64-bit pointers, a system that refuses executable memory)."""
    if platform.machine() != "x86_64" or ctypes.sizeof(ctypes.c_void_p) != 8:
        return None
    try:
        page = mmap.mmap(-1, mmap.PAGESIZE, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
    except (OSError, ValueError, AttributeError):
        return None
    page.write(CPUID_CODE + XGETBV_CODE)
    start = ctypes.addressof(ctypes.c_char.from_buffer(page))
    cpuid = ctypes.CFUNCTYPE(None, ctypes.c_uint32, ctypes.c_uint32, ctypes.c_void_p)(start)
    xgetbv = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(start + len(CPUID_CODE))
    words = (ctypes.c_uint32 * 4)()

    def read(leaf, subleaf):
        cpuid(leaf, subleaf, ctypes.addressof(words))
        return tuple(words)

    def xcr0():
        xgetbv(ctypes.addressof(words))
        return words[0]

    highest, b, c, d = read(0, 0)
    found = {"vendor": struct.pack("<3I", b, d, c).decode("latin-1"), "highest": highest, "flags": []}
    try:
        allowed = os.sched_getaffinity(0)
    except OSError:
        allowed = set()
    try:
        for cpu in sorted(allowed):
            os.sched_setaffinity(0, {cpu})
            found["flags"].append(sorted(cpuid_flags(read, xcr0)))
    except OSError:  # not allowed to choose: the processor it runs on
        found["flags"] = [sorted(cpuid_flags(read, xcr0))]
    finally:
        try:
            os.sched_setaffinity(0, allowed)
        except OSError:
            pass
    if not found["flags"]:
        found["flags"] = [sorted(cpuid_flags(read, xcr0))]
    return found


def read_cpuid():
    """cpuid_here() of a child process (this script's --cpuid), so that a fault of the machine code
    (a system that takes the execute right away, CPUID faulting) ends only the child; None where
    it fails or says it cannot."""
    try:
        child = subprocess.run([sys.executable, os.path.abspath(__file__), "--cpuid"], capture_output=True,
                               text=True, timeout=60)
        found = json.loads(child.stdout) if child.returncode == 0 else None
    except (OSError, subprocess.TimeoutExpired, ValueError):
        return None
    return found


def machine_flags(cpuinfo, cpuid=None):
    """The flags every processor has: those of all of /proc/cpuinfo's `flags` lines (`cpuinfo`, its
    text) and those CPUID reports on every processor (`cpuid`: a list of each one's flags, or None)."""
    lines = [line.split(":", 1)[1].split() for line in cpuinfo.splitlines()
             if line.split(":", 1)[0].strip() == "flags" and ":" in line]
    flags = set.intersection(*map(set, lines)) if lines else set()
    return flags | set.intersection(*cpuid) if cpuid else flags


def best_tier(flags):
    """The best of x86-64-v3, x86-64-v2 and x86-64 whose flags (TIER_FLAGS) are all in `flags`."""
    best = "x86-64"
    for tier, needs in TIER_FLAGS:
        if not needs <= flags:
            break
        best = tier
    return best


def this_machines_tier():
    found = read_cpuid()
    with open("/proc/cpuinfo") as f:
        return best_tier(machine_flags(f.read(), [set(flags) for flags in found["flags"]] if found else None))


def self_test():
    cases = [
        ("x86-64-v2", "  4010a0:\tvpaddd %ymm1,%ymm2,%ymm3", True),
        ("x86-64-v2", "  4010a0:\tvmovdqu %xmm0,(%rax)", True),
        ("x86-64-v2", "  4010a0:\tshlx   %rax,%rbx,%rcx", True),
        ("x86-64-v2", "  4010a0:\tpdep   %rax,%rbx,%rcx", True),
        ("x86-64-v2", "  4010a0:\tpopcnt %rax,%rax", False),
        ("x86-64-v2", "  4010a0:\trep bsf %rax,%rax", False),
        ("x86-64-v2", "  4010a0:\ttzcnt  %rax,%rax", False),
        ("x86-64-v2", "  4010a0:\tpshufb %xmm1,%xmm0", False),
        ("x86-64", "  4010a0:\tpopcnt %rax,%rax", True),
        ("x86-64", "  4010a0:\tpshufb %xmm1,%xmm0", True),
        ("x86-64", "  4010a0:\tmovdqa %xmm1,%xmm0", False),
        ("x86-64-v3", "  4010a0:\tvpaddd %ymm1,%ymm2,%ymm3", False),
        ("x86-64-v3", "  4010a0:\tshlx   %rax,%rbx,%rcx", False),
        ("x86-64-v3", "  4010a0:\tvpaddd %zmm1,%zmm2,%zmm3", True),
        ("x86-64-v3", "  4010a0:\tvmovdqu64 %ymm17,(%rax)", True),
        ("x86-64-v3", "  4010a0:\tvpternlogd $0xff,%ymm1,%ymm2,%ymm3", True),
        ("x86-64-v3", "  4010a0:\tkmovw  %k1,%eax", True),
        ("x86-64-v3", "  4010a0:\tvmovdqu64 %ymm1,(%rax)", True),
        ("x86-64-v3", "  4010a0:\tvmovdqu %ymm1,(%rax)", False),
        ("x86-64-v3", "  4010a0:\tvpbroadcastd %eax,%xmm0", True),
        ("x86-64-v3", "  4010a0:\tvpbroadcastd %xmm1,%ymm0", False),
        ("x86-64-v3", "  4010a0:\tvcvtqq2pd %ymm1,%ymm0", True),
        ("x86-64-v3", "  4010a0:\tvpsllvw %ymm1,%ymm2,%ymm0", True),
        ("x86-64-v3", "  4010a0:\tvpsllvd %ymm1,%ymm2,%ymm0", False),
        ("x86-64-v3", "  4010a0:\tvshufi64x2 $0x1,%ymm1,%ymm2,%ymm0", True),
        ("x86-64-v3", "  4010a0:\tvrcp14ps %xmm1,%xmm0", True),
        ("x86-64-v3", "  4010a0:\tvpmovsxbw %xmm1,%ymm0", False),
        ("x86-64-v3", "  4010a0:\tvpmovzxdq %xmm1,%ymm0", False),
        ("x86-64-v3", "  4010a0:\tvpcmpeqb %ymm1,%ymm2,%ymm0", False),
        ("x86-64-v3", "  4010a0:\tvpmovsdb %ymm1,%xmm0", True),
        ("x86-64-v3", "  4010a0:\tvpcmpud $0x1,%ymm1,%ymm2,%k1", True),
        ("x86-64", "  4010a0:\tlock cmpxchg16b (%rdi)", True),
        ("x86-64", "  4010a0:\tlock cmpxchg (%rdi),%rax", False),
        ("x86-64", "  4010a0:\tlahf", True),
        ("x86-64", "  4010a0:\tfisttpll (%rsp)", True),
    ]
    failures = 0
    for tier, line, expected in cases:
        got = bool(check_listing(tier, line))
        if got != expected:
            print(f"self-test: {tier} {line.strip()!r}: flagged={got}, expected {expected}")
            failures += 1
    v2 = "flags\t\t: fpu sse sse2 pni ssse3 cx16 sse4_1 sse4_2 popcnt lahf_lm"
    v3 = v2 + " avx avx2 bmi1 bmi2 f16c fma abm movbe xsave"
    tiers = [(v3 + " avx512f", "x86-64-v3"), (v3, "x86-64-v3"), (v3.replace(" avx2", ""), "x86-64-v2"),
             (v2, "x86-64-v2"), (v2.replace(" popcnt", ""), "x86-64"),
             (v3.replace(" ssse3", ""), "x86-64"), ("flags\t\t: fpu sse sse2", "x86-64"),
             # Only the flags lines count, and a flag every processor has.
             ("model name\t: avx2 bmi1 bmi2\n" + v2, "x86-64-v2"), (v3 + "\n" + v2, "x86-64-v2"),
             ("processor\t: 0\n" + v3 + "\nprocessor\t: 1\n" + v3, "x86-64-v3"), ("", "x86-64")]
    for flags, expected in tiers:
        if best_tier(machine_flags(flags)) != expected:
            print(f"self-test: best tier of {flags!r}: {best_tier(machine_flags(flags))}, expected {expected}")
            failures += 1
    # CPUID: a processor with every v3 flag (LZCNT: leaf 0x80000001, ecx bit 5; OSXSAVE: leaf 1,
    # ecx bit 27), and ones without LZCNT, without leaf 7, without the AVX state.
    words = {(0, 0): (7, 0, 0, 0), (0x80000000, 0): (0x80000001, 0, 0, 0),
             (1, 0): (0, 0, sum(1 << b for b in (0, 9, 12, 13, 19, 20, 22, 23, 26, 27, 28, 29)), 0),
             (7, 0): (0, (1 << 3) | (1 << 5) | (1 << 8), 0, 0), (0x80000001, 0): (0, 0, 0b100001, 0)}

    def flags_of(changed=(), xcr0=0b111):
        changed = dict(changed)
        return cpuid_flags(lambda leaf, subleaf: changed.get((leaf, subleaf), words[leaf, subleaf]), lambda: xcr0)

    def no_xgetbv():
        raise AssertionError("XGETBV asked without OSXSAVE")

    every, no_lzcnt = flags_of(), flags_of({(0x80000001, 0): (0, 0, 1, 0)})
    no_osxsave = cpuid_flags(lambda leaf, subleaf: (0, 0, words[1, 0][2] & ~(1 << 27), 0) if leaf == 1
                             else words[leaf, subleaf], no_xgetbv)
    cpuid_cases = [
        (every == set(CPUID_BITS), "every flag"), (every - no_lzcnt == {"abm"}, "no LZCNT"),
        (flags_of({(0, 0): (1, 0, 0, 0)}) == every - {"bmi1", "avx2", "bmi2"}, "leaf 7 above the highest"),
        (flags_of(xcr0=0b011) == every - AVX_STATE, "XCR0 without the AVX state"),
        (no_osxsave == every - AVX_STATE, "no OSXSAVE"),
        # The kernel left abm out; CPUID says LZCNT.
        (best_tier(machine_flags(v3.replace(" abm", ""), [every])) == "x86-64-v3", "abm from CPUID"),
        (best_tier(machine_flags(v3.replace(" abm", ""), [every, no_lzcnt])) == "x86-64-v2", "one without"),
        (best_tier(machine_flags(v3.replace(" abm", ""))) == "x86-64-v2", "no CPUID: /proc/cpuinfo's word"),
        (best_tier(machine_flags(v2, [no_osxsave])) == "x86-64-v2", "no AVX state"),
    ]
    for ok, what in cpuid_cases:
        if not ok:
            print(f"self-test: CPUID case {what!r} not as expected")
            failures += 1
    # The machine code, where it runs here: a vendor's 12 letters, leaf 1 at least, and every flag
    # of x86-64-v2's that /proc/cpuinfo lists (the basic ones no kernel leaves out) said by CPUID too.
    found = read_cpuid()
    if found is not None and os.path.exists("/proc/cpuinfo"):
        with open("/proc/cpuinfo") as f:
            listed = machine_flags(f.read()) & TIER_FLAGS[0][1]
        said = set.intersection(*map(set, found["flags"]))
        cpuid_cases.append((re.fullmatch(r"[ -~]{12}", found["vendor"]) is not None and found["highest"] >= 1
                            and listed <= said, f"CPUID here: {found} against /proc/cpuinfo's {sorted(listed)}"))
        if not cpuid_cases[-1][0]:
            print(f"self-test: CPUID case {cpuid_cases[-1][1]!r} not as expected")
            failures += 1
    tiers += cpuid_cases
    total = len(cases) + len(tiers)
    print(f"self-test: {total - failures}/{total} cases as expected")
    return 1 if failures else 0


def host_tier(binary):
    best = this_machines_tier()
    version = subprocess.run([binary, "--version"], check=True, capture_output=True, text=True).stdout.strip()
    if not version.endswith(f"({best})"):
        print(f"{binary} --version: {version!r}; this processor's best tier is {best} "
              "(a build configured on another machine? configure it again here)")
        return 1
    print(f"{binary}: built for {best}, this processor's best tier")
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if argv[1:] == ["--cpuid"]:  # for read_cpuid: in a process of its own
        found = cpuid_here()
        print(json.dumps(found))
        return 0 if found else 1
    if argv[1:] == ["--best-tier"]:
        print(this_machines_tier())
        return 0
    if len(argv) == 3 and argv[1] == "--host-tier":
        return host_tier(argv[2])
    objdump = "objdump"
    if len(argv) > 2 and argv[1] == "--objdump":
        objdump, argv = argv[2], argv[:1] + argv[3:]
    if len(argv) < 4 or argv[1] != "--tier":
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    tier, binaries = argv[2], argv[3:]
    if tier not in ("x86-64", "x86-64-v2", "x86-64-v3"):
        print(f"tier {tier}: no instruction is beyond it to look for")
        return 0
    bad = 0
    for binary in binaries:
        listing = subprocess.run([objdump, "-d", "--no-show-raw-insn", binary], check=True,
                                 capture_output=True, text=True).stdout
        if not listing.strip():
            print(f"{binary}: objdump listed no code")
            return 1
        found = check_listing(tier, listing)
        for address, instruction, reason in found[:20]:
            print(f"{binary}: {address}: {instruction}: {reason}")
        if found:
            print(f"{binary}: {len(found)} instructions beyond {tier}")
            bad += 1
        else:
            print(f"{binary}: only {tier} instructions")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
