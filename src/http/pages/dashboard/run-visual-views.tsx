/**
 * The visual diff viewer: one page's screenshots at each size against the baseline's, side by side (baseline,
 * current, the diff image) and as an overlay (the current screenshot at half opacity over the baseline's). It reads
 * only the run view's `page.visual`; a page without it shows nothing. Usable without JavaScript.
 */

/** One size of a page's visual comparison, as the run view answers it (its images as links this page can load). */
export interface VisualSizeItem {
  size: string;
  changedRatio: number;
  diffUrl?: string;
  baselineUrl: string;
  currentUrl: string;
}

export interface PageVisualItem {
  sizes: VisualSizeItem[];
  changed: boolean;
}

/** A ratio as people read it: "0.42% changed". */
export const percentChanged = (ratio: number) => `${(ratio * 100).toFixed(ratio > 0 && ratio < 0.001 ? 3 : 2)}%`;

function Picture(props: { url: string; alt: string; caption: string }) {
  return (
    <figure>
      <a href={props.url}>
        <img src={props.url} alt={props.alt} width="320" loading="lazy" />
      </a>
      <figcaption safe>{props.caption}</figcaption>
    </figure>
  );
}

export function VisualDiff(props: { pageKey: string; visual?: PageVisualItem }) {
  const { visual, pageKey } = props;
  if (!visual || visual.sizes.length === 0) return "";
  return (
    <div class="visual-diff">
      {visual.sizes.map((s) => (
        <section aria-label={`${pageKey} at ${s.size}`}>
          <h4>
            <span safe>{s.size}</span>: {percentChanged(s.changedRatio)} changed
          </h4>
          <div class="shots">
            <Picture url={s.baselineUrl} alt={`Baseline screenshot at ${s.size}`} caption="Baseline" />
            <Picture url={s.currentUrl} alt={`This run's screenshot at ${s.size}`} caption="Current" />
            {s.diffUrl ? (
              <Picture
                url={s.diffUrl}
                alt={`The changed pixels at ${s.size}, marked`}
                caption="Difference (changed pixels marked)"
              />
            ) : (
              ""
            )}
          </div>
          <details>
            <summary>Overlay</summary>
            <div class="overlay">
              <img src={s.baselineUrl} alt={`Baseline at ${s.size}, under this run's`} width="320" />
              <img src={s.currentUrl} alt="" width="320" class="over" />
            </div>
          </details>
        </section>
      ))}
    </div>
  );
}
