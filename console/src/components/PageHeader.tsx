import type { ReactNode } from 'react';
import './PageHeader.css';

export function PageHeader({
  title,
  subtitle,
  actions,
}: {
  title: string;
  subtitle?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <header className="hs-page-header">
      <div>
        <h1 className="hs-page-title">{title}</h1>
        {subtitle ? <p className="hs-page-subtitle">{subtitle}</p> : null}
      </div>
      {actions ? <div className="hs-page-actions">{actions}</div> : null}
    </header>
  );
}
