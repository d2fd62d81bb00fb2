import type { AssayAxeRule } from "./rule";

/**
 * W3C ACT rule d0f69e (WCAG 1.3.1): a table's column or row header that no cell is assigned to labels nothing, so
 * a screen reader announces nothing under it. axe-core's th-has-data-cells reads HTML tables only and asks for
 * review where the grid is irregular; this reads the grid of HTML and ARIA tables and grids alike.
 *
 * Applies to a header cell (role columnheader or rowheader, as axe computes the role: a th by its place) that is
 * visible to assistive technology, in a table, grid or treegrid that is too and that has a cell that is not a
 * header (a table whose body is still empty is not judged). Passes when a cell is assigned to it: one below it in
 * its column, or after it in its row (not another column header), that has no headers attribute, colspan and rowspan
 * counted; or one whose headers attribute names its id. Both directions count for every header, as axe's reading
 * of a th as a column or a row header depends on its neighbours: a header this fails labels nothing either way.
 */
export const headerAssignedCells: AssayAxeRule = {
  id: "header-assigned-cells",
  selector: "th, [role=columnheader], [role=rowheader]",
  tags: ["cat.tables", "wcag2a", "wcag131", "assay"],
  impact: "serious",
  actId: "d0f69e",
  description: "Ensure each table header labels at least one cell",
  help: "A table header must have cells assigned to it",
  messages: {
    pass: "Cells are assigned to the header",
    fail: "No cell is assigned to the header: it labels nothing in the table",
    incomplete: "Whether cells are assigned to the header could not be read",
  },
  matches: function headerAssignedCellsMatches(node: Element): boolean {
    const axe = (globalThis as unknown as { axe: any }).axe;
    const role = axe.commons.aria.getRole(node);
    if (role !== "columnheader" && role !== "rowheader") return false;
    if (!axe.commons.dom.isVisibleToScreenReaders(node) || !axe.commons.dom.isVisibleOnScreen(node)) return false;
    const table = node.parentElement?.closest("table, [role=table], [role=grid], [role=treegrid]");
    return Boolean(table && ["table", "grid", "treegrid"].includes(axe.commons.aria.getRole(table)));
  },
  evaluate: function headerAssignedCellsEvaluate(node: Element): boolean | undefined {
    const axe = (globalThis as unknown as { axe: any }).axe;
    const tableOf = (el: Element) => el.parentElement?.closest("table, [role=table], [role=grid], [role=treegrid]");
    const table = tableOf(node)!;
    const roleOf = (el: Element): string => axe.commons.aria.getRole(el) ?? "";
    const cellRoles = ["cell", "gridcell", "columnheader", "rowheader"];
    const rows = [...table.querySelectorAll("tr, [role=row]")].filter(
      (r) => tableOf(r) === table && roleOf(r) === "row",
    );
    // The grid: grid[row][column] is the cell there, colspan and rowspan counted.
    const grid: Element[][] = [];
    rows.forEach((row, y) => {
      grid[y] ??= [];
      let x = 0;
      const cells = [
        ...row.querySelectorAll("td, th, [role=cell], [role=gridcell], [role=columnheader], [role=rowheader]"),
      ].filter((c) => c.closest("tr, [role=row]") === row && cellRoles.includes(roleOf(c)));
      for (const cell of cells) {
        while (grid[y]![x]) x++;
        const span = Math.max(1, Number(cell.getAttribute("colspan")) || 1);
        const down = Math.max(1, Number(cell.getAttribute("rowspan")) || 1);
        for (let dy = 0; dy < down && y + dy < rows.length; dy++)
          for (let dx = 0; dx < span; dx++) (grid[y + dy] ??= [])[x + dx] = cell;
        x += span;
      }
    });
    const visible = (c: Element) => axe.commons.dom.isVisibleToScreenReaders(c);
    const all = grid.flat().filter(visible);
    if (!all.some((c) => !["columnheader", "rowheader"].includes(roleOf(c)))) return true;
    const id = node.getAttribute("id");
    if (id && all.some((c) => c !== node && (c.getAttribute("headers") ?? "").split(/\s+/).includes(id))) return true;
    // Whether axe reads a th as a column or a row header depends on its neighbours, so both directions count: the
    // cells below it, and the cells after it in its row but for the row's other column headers.
    for (let y = 0; y < grid.length; y++)
      for (let x = 0; x < (grid[y]?.length ?? 0); x++) {
        if (grid[y]![x] !== node) continue;
        const below = grid.slice(y + 1).map((r) => r[x]);
        const after = (grid[y] ?? []).slice(x + 1).filter((c) => c && roleOf(c) !== "columnheader");
        if ([...below, ...after].some((c) => c && c !== node && visible(c) && !c.hasAttribute("headers"))) return true;
      }
    return false;
  },
};
