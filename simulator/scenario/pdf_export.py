"""PDF beside the SVG: the printable template sheets and track tiles as one PDF each, at 1:1.

Each SVG page (its user unit is one millimetre, its size given in mm) becomes
one PDF page of the same size, read with ``svglib`` and drawn with
``reportlab``, so the 100 mm ruler prints 100 mm. The PDF asks the viewer to
print without scaling (``/ViewerPreferences << /PrintScaling /None >>``: the
"actual size" setting of the print dialog), and is reproducible byte for byte
(reportlab's invariant mode: no creation date or random id).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from simulator.atomic import write_atomic_with

MM_PER_POINT = 25.4 / 72.0
"""A PDF point in millimetres."""


def svgs_to_pdf(svg_paths: Sequence[Path], out_pdf: Path, title: str) -> Path:
    """Write the SVG pages ``svg_paths`` (in order) as one PDF at 1:1 to ``out_pdf`` (atomically); returns it.

    Raises ``ValueError`` for an SVG that cannot be read, ``OSError`` when writing fails.
    """
    from reportlab.graphics import renderPDF
    from reportlab.pdfgen import canvas
    from svglib.svglib import svg2rlg

    drawings = []
    for path in svg_paths:
        drawing = svg2rlg(str(path))
        if drawing is None:
            raise ValueError(f"{path}: not a readable SVG page")
        drawings.append(drawing)

    def write(tmp: Path) -> None:
        c = canvas.Canvas(str(tmp), invariant=1, pageCompression=1)
        c.setTitle(title)
        c.setCreator("gaslands (print at 100%, actual size)")
        c.setViewerPreference("PrintScaling", "None")
        for d in drawings:
            c.setPageSize((d.width, d.height))
            renderPDF.draw(d, c, 0, 0)
            c.showPage()
        c.save()

    write_atomic_with(out_pdf, write, ".pdf")
    return out_pdf
