"""A minimal PEP 517 / PEP 660 build backend, standard library only, for the ``sdk`` package.

It builds a pure-Python wheel (the ``sdk`` package plus metadata), an editable wheel (a ``.pth``
file pointing at this directory) and an sdist. Name and version come from pyproject.toml.
"""

import base64
import hashlib
import io
import os
import tarfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = "sdk"


def _project():
    try:
        import tomllib  # Python 3.11+
    except ImportError:
        tomllib = None
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        raw = f.read()
    if tomllib is not None:
        return tomllib.loads(raw.decode("utf-8"))["project"]
    # Older Pythons: the few flat `key = "value"` lines of [project] are enough here.
    project, section = {}, None
    for line in raw.decode("utf-8").splitlines():
        line = line.strip()
        if line.startswith("["):
            section = line.strip("[]")
        elif section == "project" and "=" in line and line.split("=", 1)[1].strip().startswith('"'):
            key, value = line.split("=", 1)
            project[key.strip()] = value.strip().strip('"')
    return project


def _names():
    project = _project()
    name, version = project["name"], project["version"]
    return project, name, name.replace("-", "_"), version


def _metadata():
    project, name, _, version = _names()
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {name}",
        f"Version: {version}",
        f"Summary: {project.get('description', '')}",
        f"Requires-Python: {project.get('requires-python', '>=3.8')}",
    ]
    readme = os.path.join(ROOT, "README.md")
    body = ""
    if os.path.exists(readme):
        lines.append("Description-Content-Type: text/markdown")
        with open(readme, encoding="utf-8") as f:
            body = f.read()
    return "\n".join(lines) + "\n\n" + body


def _record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def _wheel(wheel_directory, files):
    _, _, dist, version = _names()
    filename = f"{dist}-{version}-py3-none-any.whl"
    info = f"{dist}-{version}.dist-info"
    files = dict(files)
    files[f"{info}/METADATA"] = _metadata().encode("utf-8")
    files[f"{info}/WHEEL"] = (
        "Wheel-Version: 1.0\nGenerator: brow-sdk-backend\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    ).encode()
    files[f"{info}/top_level.txt"] = f"{PACKAGE}\n".encode()
    record = [_record_line(path, data) for path, data in files.items()]
    record.append(f"{info}/RECORD,,")
    files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode()
    with zipfile.ZipFile(os.path.join(wheel_directory, filename), "w", zipfile.ZIP_DEFLATED) as zf:
        for path, data in files.items():
            zf.writestr(path, data)
    return filename


def _package_files():
    files = {}
    base = os.path.join(ROOT, PACKAGE)
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for filename in sorted(filenames):
            if filename.endswith(".py") or filename == "py.typed":
                full = os.path.join(dirpath, filename)
                with open(full, "rb") as f:
                    files[os.path.relpath(full, ROOT).replace(os.sep, "/")] = f.read()
    return files


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _wheel(wheel_directory, _package_files())


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    _, _, dist, _ = _names()
    return _wheel(wheel_directory, {f"__editable__.{dist}.pth": (ROOT + "\n").encode()})


def build_sdist(sdist_directory, config_settings=None):
    _, _, dist, version = _names()
    stem = f"{dist}-{version}"
    filename = f"{stem}.tar.gz"
    entries = ["pyproject.toml", "README.md", "_build/backend.py"] + sorted(_package_files())
    with tarfile.open(os.path.join(sdist_directory, filename), "w:gz") as tar:
        for rel in entries:
            full = os.path.join(ROOT, rel)
            if os.path.exists(full):
                tar.add(full, arcname=f"{stem}/{rel}")
        pkg_info = _metadata().encode("utf-8")
        ti = tarfile.TarInfo(f"{stem}/PKG-INFO")
        ti.size = len(pkg_info)
        tar.addfile(ti, io.BytesIO(pkg_info))
    return filename
