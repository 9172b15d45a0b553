"""nickar._lib -- finds and loads libnickar.so and declares its functions
(include/nickar.h) for ctypes.  Standard library only.

The library is looked for, first found wins:
  1. $NICKAR_LIB: the file (or a directory holding libnickar.so);
  2. the build directories of the checkout this package lies in
     (python/../build, build-dev, build-asan: `cmake --build --preset ...`);
  3. the installed library: ctypes.util.find_library("nickar") (the linker's
     cache, LD_LIBRARY_PATH), then `pkg-config --variable=libdir nickar`
     (PKG_CONFIG_PATH), then /usr/local/lib.
It is loaded on first use, so that the file readers (nickar.files) work
without it.
"""

import ctypes
import ctypes.util
import os
import shutil
import subprocess

_NAME = "libnickar.so"
_lib = None
_where = None


class Think(ctypes.Structure):
    _fields_ = [("move", ctypes.c_int), ("score", ctypes.c_double),
                ("depth", ctypes.c_uint), ("nodes", ctypes.c_uint64)]


class CPosition(ctypes.Structure):
    _fields_ = [("pit", ctypes.c_int * 12), ("store", ctypes.c_int * 2),
                ("side", ctypes.c_int), ("north", ctypes.c_uint), ("passes", ctypes.c_int)]


class CResult(ctypes.Structure):
    _fields_ = [("over", ctypes.c_int), ("reason", ctypes.c_char_p),
                ("winner", ctypes.c_int), ("total", ctypes.c_uint * 2)]


_P = ctypes.c_void_p
_S = ctypes.c_char_p
_ERR = [ctypes.c_char_p, ctypes.c_size_t]
# name: (restype, argtypes); a status-returning function ends with err, errlen
_PROTOTYPES = {
    "nickar_version": (_S, []),
    "nickar_api_version": (ctypes.c_int, []),
    "nickar_strerror": (_S, [ctypes.c_int]),
    "nickar_variant_count": (ctypes.c_size_t, []),
    "nickar_variant_name": (_S, [ctypes.c_size_t]),
    "nickar_variant_title": (_S, [ctypes.c_size_t]),
    "nickar_variant_find": (ctypes.c_int, [_S]),
    "nickar_move_letter": (ctypes.c_char, [ctypes.c_int]),
    "nickar_move_parse": (ctypes.c_int, [ctypes.c_char]),
    "nickar_position_parse": (ctypes.c_int, [_S, ctypes.POINTER(CPosition)] + _ERR),
    "nickar_position_format": (ctypes.c_int, [ctypes.POINTER(CPosition), _S] + _ERR),
    "nickar_position_start": (None, [ctypes.POINTER(CPosition), ctypes.c_int]),
    "nickar_game_new": (ctypes.c_int, [ctypes.POINTER(_P), _S, _S, ctypes.c_uint] + _ERR),
    "nickar_game_clone": (_P, [_P]),
    "nickar_game_free": (None, [_P]),
    "nickar_game_variant": (_S, [_P]),
    "nickar_game_position_text": (None, [_P, _S]),
    "nickar_game_position": (None, [_P, ctypes.POINTER(CPosition)]),
    "nickar_game_to_move": (ctypes.c_int, [_P]),
    "nickar_game_ply": (ctypes.c_uint, [_P]),
    "nickar_game_ply_limit": (ctypes.c_uint, [_P]),
    "nickar_game_move_at": (ctypes.c_int, [_P, ctypes.c_uint]),
    "nickar_game_legal": (ctypes.c_uint, [_P]),
    "nickar_game_play": (ctypes.c_int, [_P, ctypes.c_int, ctypes.POINTER(ctypes.c_uint)] + _ERR),
    "nickar_game_over": (ctypes.c_int, [_P]),
    "nickar_game_result": (None, [_P, ctypes.POINTER(CResult)]),
    "nickar_player_new": (ctypes.c_int, [ctypes.POINTER(_P), _S, _S, ctypes.c_uint64] + _ERR),
    "nickar_player_free": (None, [_P]),
    "nickar_player_spec": (_S, [_P]),
    "nickar_player_seed": (None, [_P, ctypes.c_uint64]),
    "nickar_player_move": (ctypes.c_int, [_P, _P, ctypes.POINTER(Think)] + _ERR),
    "nickar_player_evaluate": (ctypes.c_int, [_P, _P, ctypes.POINTER(ctypes.c_double)] + _ERR),
    "nickar_search": (ctypes.c_int, [_P, _S, ctypes.c_uint64, ctypes.POINTER(Think)] + _ERR),
    "nickar_evaluate": (ctypes.c_int, [_P, _S, ctypes.POINTER(ctypes.c_double)] + _ERR),
}

API_VERSION = 1  # the NICKAR_API_VERSION this module was written for
ERR_MAX = 1024
POS_TEXT = 96
STATUS = ("ok", "einval", "erange", "eillegal", "eover", "enomem", "eio", "eformat",
          "emismatch", "einterrupted", "enofile")


class NickarError(Exception):
    """A call of libnickar refused: str(e) is its one-line message, e.status
    the status code (an int), e.code its name ("einval", "eillegal", ...)."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status
        self.code = STATUS[status] if 0 <= status < len(STATUS) else "unknown"


def _candidates():
    """(path, how it was found) to try, in order."""
    env = os.environ.get("NICKAR_LIB")
    if env:
        yield (os.path.join(env, _NAME) if os.path.isdir(env) else env), "NICKAR_LIB"
        return
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if os.path.isfile(os.path.join(root, "include", "nickar.h")):
        for b in ("build", "build-dev", "build-asan"):
            yield os.path.join(root, b, _NAME), "the checkout's " + b + "/"
    found = ctypes.util.find_library("nickar")
    if found:
        yield found, "find_library"
    if shutil.which("pkg-config"):
        try:
            libdir = subprocess.run(["pkg-config", "--variable=libdir", "nickar"],
                                    capture_output=True, text=True, timeout=10).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            libdir = ""
        if libdir:
            yield os.path.join(libdir, _NAME), "pkg-config"
    yield os.path.join("/usr/local/lib", _NAME), "/usr/local/lib"


def _load():
    tried = []
    for path, how in _candidates():
        if os.path.sep in path and not os.path.isfile(path):
            tried.append(path)
            continue
        try:
            return ctypes.CDLL(path), path
        except OSError as e:
            tried.append(f"{path} ({str(e).splitlines()[0]})")
    raise OSError("libnickar.so not found (tried: " + ", ".join(tried) +
                  "); build it (cmake --build --preset release) or set NICKAR_LIB")


def lib():
    """The loaded library, its functions declared; OSError if it cannot be
    found or is of another API version."""
    global _lib, _where
    if _lib is None:
        handle, where = _load()
        for name, (res, args) in _PROTOTYPES.items():
            f = getattr(handle, name)
            f.restype, f.argtypes = res, args
        if handle.nickar_api_version() != API_VERSION:
            raise OSError(f"{where}: API version {handle.nickar_api_version()}, "
                          f"this package speaks {API_VERSION}")
        _lib, _where = handle, where
    return _lib


def path():
    """The file the library was loaded from (loading it if needed)."""
    lib()
    return _where


def call(name, *args):
    """Calls a status-returning function with an error buffer appended;
    NickarError with its message when it refuses."""
    err = ctypes.create_string_buffer(ERR_MAX)
    st = getattr(lib(), name)(*args, err, ERR_MAX)
    if st != 0:
        raise NickarError(st, err.value.decode("utf-8", "replace"))


def enc(s):
    return None if s is None else s.encode("utf-8")


def dec(b):
    return None if b is None else b.decode("utf-8", "replace")
