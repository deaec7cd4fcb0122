import Markdown, { type Components } from 'react-markdown';

/** Headings, lists and links styled like the rest of the portal; tailwind resets them. */
const components: Components = {
  h1: ({ node: _node, ...props }) => <h2 className="mt-6 text-xl font-semibold text-ink first:mt-0" {...props} />,
  h2: ({ node: _node, ...props }) => <h3 className="mt-5 text-lg font-semibold text-ink first:mt-0" {...props} />,
  h3: ({ node: _node, ...props }) => <h4 className="mt-4 text-base font-semibold text-ink first:mt-0" {...props} />,
  p: ({ node: _node, ...props }) => <p className="mt-3 text-sm leading-6 text-muted first:mt-0" {...props} />,
  ul: ({ node: _node, ...props }) => <ul className="mt-3 list-disc space-y-1 pl-5 text-sm text-muted" {...props} />,
  ol: ({ node: _node, ...props }) => <ol className="mt-3 list-decimal space-y-1 pl-5 text-sm text-muted" {...props} />,
  a: ({ node: _node, ...props }) => (
    <a className="text-accent underline" target="_blank" rel="noreferrer noopener" {...props} />
  ),
  strong: ({ node: _node, ...props }) => <strong className="font-semibold text-ink" {...props} />,
};

/**
 * An operator's Markdown as the public sees it. Raw HTML in the source is dropped (skipHtml) and react-markdown
 * keeps only safe link protocols, so a published document cannot run script in a customer's browser.
 */
export function SafeMarkdown({ source }: { source: string }) {
  return (
    <div data-testid="markdown" className="break-words">
      <Markdown skipHtml components={components}>
        {source}
      </Markdown>
    </div>
  );
}
