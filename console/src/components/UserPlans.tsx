import {
  Alert,
  Button,
  Callout,
  Classes,
  Dialog,
  FormGroup,
  HTMLSelect,
  HTMLTable,
  InputGroup,
  Tag,
} from '@blueprintjs/core';
import { useState } from 'react';
import { call, errorMessage } from '../lib/api.ts';
import type { UserProductRow } from '../lib/records.ts';
import { toastSuccess } from '../lib/toaster.ts';

/** The products an administrator can grant (server/users/plans.ts). */
const PRODUCTS = ['Researcher', 'Bees Premium Subscription'] as const;

/** A confirmed change: what the Alert says, and the request it makes once confirmed. */
interface Pending {
  question: string;
  confirm: string;
  intent: 'primary' | 'danger';
  done: string;
  /** The request, made once confirmed. */
  send: () => Promise<unknown>;
}

/** Today as YYYY-MM-DD in the browser's zone (the server counts days in UTC). */
function todayText(): string {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

function status(
  grant: UserProductRow,
  today: string,
): { text: string; intent: 'success' | 'none' } {
  if (grant.endDate < today) return { text: 'Ended', intent: 'none' };
  if (grant.startDate > today) return { text: 'Starts later', intent: 'none' };
  return { text: 'Active', intent: 'success' };
}

/**
 * One user's granted products, with grant, extend and revoke (issue 57), each confirmed first:
 * what `hivesight users grant` does from a terminal. `rows` are the users list's rows of this
 * user; `onChanged` reloads them.
 */
export function UserPlans({
  rows,
  onClose,
  onChanged,
}: {
  rows: UserProductRow[];
  onClose: () => void;
  onChanged: () => void;
}) {
  const user = rows[0]!;
  const grants = rows.filter((r) => r.productId !== null);
  const today = todayText();
  const [product, setProduct] = useState<string>(PRODUCTS[0]);
  const [until, setUntil] = useState('');
  const [extendTo, setExtendTo] = useState<Record<number, string>>({});
  const [pending, setPending] = useState<Pending | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const who = user.name ? `${user.name} (${user.email})` : user.email;

  const ask = (next: Pending) => {
    setProblem(null);
    setPending(next);
  };

  const run = async () => {
    if (!pending) return;
    setBusy(true);
    try {
      await pending.send();
      toastSuccess(pending.done, undefined, 3000);
      setPending(null);
      setUntil('');
      setExtendTo({});
      onChanged();
    } catch (error) {
      setPending(null);
      setProblem(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  const grant = () => {
    const userId = user.userId;
    if (userId === null) return;
    if (!until) {
      setProblem('Choose the last day of the grant.');
      return;
    }
    ask({
      question: `Grant ${product} to ${who} from today until ${until}?`,
      confirm: 'Grant',
      intent: 'primary',
      done: `Granted ${product} to ${user.email}.`,
      send: () =>
        call('POST /api/admin/users/:id/products', {
          params: { id: userId },
          body: { product_name: product, end_date: until },
        }),
    });
  };

  return (
    <Dialog
      isOpen
      onClose={onClose}
      title={`Plans of ${who}`}
      style={{ maxWidth: 720, width: '95vw' }}
    >
      <div className={Classes.DIALOG_BODY}>
        {problem ? (
          <Callout intent="danger" icon="error" role="alert" className="hs-gap">
            {problem}
          </Callout>
        ) : null}
        {grants.length === 0 ? (
          <p>No products granted: {user.email} is on the Free Forever plan.</p>
        ) : (
          <div className="hs-table-wrap">
            <HTMLTable className="hs-table" aria-label={`Products of ${user.email}`}>
              <thead>
                <tr>
                  <th scope="col">Product</th>
                  <th scope="col">From</th>
                  <th scope="col">Until</th>
                  <th scope="col">Change</th>
                </tr>
              </thead>
              <tbody>
                {grants.map((g) => {
                  const id = g.productId!;
                  const state = status(g, today);
                  const label = `New end date of ${g.productName} from ${g.startDate}`;
                  return (
                    <tr key={id}>
                      <td data-label="Product">
                        {g.productName}{' '}
                        <Tag minimal intent={state.intent}>
                          {state.text}
                        </Tag>
                      </td>
                      <td data-label="From" className="hs-nowrap">
                        {g.startDate}
                      </td>
                      <td data-label="Until" className="hs-nowrap">
                        {g.endDate}
                      </td>
                      <td data-label="Change">
                        <div className="hs-plan-change">
                          <InputGroup
                            type="date"
                            aria-label={label}
                            min={g.endDate}
                            value={extendTo[id] ?? ''}
                            onValueChange={(v) => setExtendTo((m) => ({ ...m, [id]: v }))}
                          />
                          <Button
                            text="Extend"
                            disabled={!extendTo[id]}
                            onClick={() =>
                              ask({
                                question: `Extend ${g.productName} of ${who} from ${g.endDate} to ${extendTo[id]}?`,
                                confirm: 'Extend',
                                intent: 'primary',
                                done: `Extended ${g.productName} of ${user.email} to ${extendTo[id]}.`,
                                send: () =>
                                  call('POST /api/admin/products/:id/extend', {
                                    params: { id },
                                    body: { end_date: extendTo[id]! },
                                  }),
                              })
                            }
                          />
                          {state.text === 'Ended' ? null : (
                            <Button
                              text="Revoke"
                              intent="danger"
                              minimal
                              onClick={() =>
                                ask({
                                  question: `Revoke ${g.productName} from ${who}? It is no longer active from today.`,
                                  confirm: 'Revoke',
                                  intent: 'danger',
                                  done: `Revoked ${g.productName} from ${user.email}.`,
                                  send: () =>
                                    call('POST /api/admin/products/:id/revoke', {
                                      params: { id },
                                    }),
                                })
                              }
                            />
                          )}
                        </div>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </HTMLTable>
          </div>
        )}
        <h3 className="hs-card-subtitle">Grant a product</h3>
        <div className="hs-plan-grant">
          <FormGroup label="Product" labelFor="hs-grant-product">
            <HTMLSelect
              id="hs-grant-product"
              value={product}
              onChange={(e) => setProduct(e.currentTarget.value)}
              options={[...PRODUCTS]}
            />
          </FormGroup>
          <FormGroup label="Until (last day)" labelFor="hs-grant-until">
            <InputGroup
              id="hs-grant-until"
              type="date"
              min={today}
              value={until}
              onValueChange={setUntil}
            />
          </FormGroup>
          <Button intent="primary" text="Grant" onClick={grant} />
        </div>
      </div>
      <Alert
        isOpen={pending !== null}
        intent={pending?.intent ?? 'primary'}
        confirmButtonText={pending?.confirm ?? 'Confirm'}
        cancelButtonText="Cancel"
        loading={busy}
        onConfirm={() => void run()}
        onCancel={() => setPending(null)}
      >
        <p>{pending?.question}</p>
      </Alert>
    </Dialog>
  );
}
