import type { ReactNode } from 'react';

/** One fold of the host panel: a form or list behind its title, closed until the host opens it. */
export function HostSection(props: { title: string; children: ReactNode; testId?: string }) {
  return (
    <details className="host-section" data-testid={props.testId}>
      <summary>{props.title}</summary>
      <div className="host-section__body">{props.children}</div>
    </details>
  );
}
