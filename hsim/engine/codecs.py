"""Block compression codecs, framed as HBase's Compression.Algorithm writes them on disk.

HBase compresses each HFile block body (never the 33-byte header) with the family's codec,
through Hadoop's codec streams:

- SNAPPY and LZ4 go through Hadoop's BlockCompressorStream: a 4-byte big-endian length of the
  whole input, then one or more chunks of `[compressed length:4][compressed bytes]`, one per
  MAX_INPUT_SIZE of input (buffer size 256 KiB minus the codec's worst-case overhead:
  SnappyCodec `buf/6 + 32`, Lz4Codec `buf/255 + 16`).
  An empty input is the 4-byte zero length alone (BlockCompressorStream.finish writes a chunk
  only for compressor output, and an empty input gives none).
- GZ goes through ReusableStreamGzipCodec: a gzip stream (10-byte header, deflate at zlib's
  default level, 8-byte trailer).
- ZSTD goes through Hadoop's ZStandardCodec (Compression.Algorithm.ZSTD's default codec), whose
  CompressorStream adds no framing of its own: one zstd frame per block, at
  io.compression.codec.zstd.level 3, with no content size (the native compressor streams) and no
  checksum.
- NONE stores the body as is.

So compressed sizes here are what HBase would store, framing included.
"""

from __future__ import annotations

import struct
import zlib

import lz4.block
import snappy
import zstandard

# Compression.Algorithm ordinals, as the trailer stores them.
ALGORITHM_ORDINALS = {"LZO": 0, "GZ": 1, "NONE": 2, "SNAPPY": 3, "LZ4": 4, "BZIP2": 5, "ZSTD": 6}
ALGORITHM_NAMES = {v: k for k, v in ALGORITHM_ORDINALS.items()}

_BUFFER = 256 * 1024  # io.compression.codec.{snappy,lz4}.buffersize
_SNAPPY_MAX_INPUT = _BUFFER - (_BUFFER // 6 + 32)
_LZ4_MAX_INPUT = _BUFFER - (_BUFFER // 255 + 16)
_I = struct.Struct(">i")


def _block_framed(raw_compress, max_input):
    pack = _I.pack

    def compress(data: bytes) -> bytes:
        n = len(data)
        if not n:
            return pack(0)
        if n <= max_input:
            c = raw_compress(data)
            return b"".join((pack(n), pack(len(c)), c))
        parts = [pack(n)]
        mv = memoryview(data)
        for off in range(0, n, max_input):
            c = raw_compress(bytes(mv[off : off + max_input]))
            parts.append(pack(len(c)))
            parts.append(c)
        return b"".join(parts)

    return compress


def _block_unframer(raw_decompress, max_input):
    unpack = _I.unpack_from

    def decompress(data: bytes, uncompressed_size: int) -> bytes:
        remaining = unpack(data, 0)[0]
        pos = 4
        end = len(data)
        parts = []
        while pos < end:
            clen = unpack(data, pos)[0]
            pos += 4
            chunk = raw_decompress(data[pos : pos + clen], min(remaining, max_input))
            remaining -= len(chunk)
            parts.append(chunk)
            pos += clen
        out = parts[0] if len(parts) == 1 else b"".join(parts)
        if len(out) != uncompressed_size:
            raise ValueError(
                f"block decompressed to {len(out)} bytes, expected {uncompressed_size}")
        return out

    return decompress


def _gz_compress(data: bytes) -> bytes:
    c = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, 31)
    return c.compress(data) + c.flush()


_ZSTD_LEVEL = 3  # io.compression.codec.zstd.level
_zstd_compressor = zstandard.ZstdCompressor(level=_ZSTD_LEVEL, write_content_size=False,
                                            write_checksum=False)


def _zstd_decompress(data: bytes, uncompressed_size: int) -> bytes:
    out = zstandard.ZstdDecompressor().decompressobj().decompress(data)
    if len(out) != uncompressed_size:
        raise ValueError(
            f"block decompressed to {len(out)} bytes, expected {uncompressed_size}")
    return out


def _identity(data: bytes) -> bytes:
    return data


def _identity2(data: bytes, uncompressed_size: int) -> bytes:
    return data


_COMPRESSORS = {
    "NONE": _identity,
    "SNAPPY": _block_framed(snappy.compress, _SNAPPY_MAX_INPUT),
    "LZ4": _block_framed(lambda d: lz4.block.compress(d, store_size=False), _LZ4_MAX_INPUT),
    "GZ": _gz_compress,
    "ZSTD": _zstd_compressor.compress,
}
_DECOMPRESSORS = {
    "NONE": _identity2,
    "SNAPPY": _block_unframer(lambda d, n: snappy.decompress(d), _SNAPPY_MAX_INPUT),
    "LZ4": _block_unframer(
        lambda d, n: lz4.block.decompress(d, uncompressed_size=n), _LZ4_MAX_INPUT
    ),
    "GZ": lambda d, n: zlib.decompress(d, 31),
    "ZSTD": _zstd_decompress,
}


def compressor(name: str):
    """The function bytes -> on-disk bytes for a family's COMPRESSION."""
    return _COMPRESSORS[name]


def decompressor(name: str):
    """The function (on-disk bytes, uncompressed size) -> bytes for a family's COMPRESSION."""
    if name not in _DECOMPRESSORS:
        raise ValueError(f"compression {name} is not one hsim reads "
                         f"({', '.join(_DECOMPRESSORS)})")
    return _DECOMPRESSORS[name]
