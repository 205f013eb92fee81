import { Button, Card, Icon, Tag } from '@blueprintjs/core';
import { useNavigate } from 'react-router-dom';
import { useAuth } from '../auth.tsx';
import { HornetAlertsSetting } from '../components/HornetAlertsSetting.tsx';
import { TrainingConsentSetting } from '../components/TrainingConsentSetting.tsx';
import { call, errorMessage } from '../lib/api.ts';
import { toastError } from '../lib/toaster.ts';
import { useResource } from '../lib/useResource.ts';
import '../components/PageHeader.css';
import './Plans.css';

interface Feature {
  label: string;
  free: boolean;
  researcher: boolean;
}

const FEATURES: Feature[] = [
  { label: 'Count bees', free: true, researcher: true },
  { label: 'Count bees with pollen', free: true, researcher: true },
  { label: 'Count drones', free: true, researcher: true },
  { label: 'Unlimited hive analysis and CSV reports', free: true, researcher: true },
  { label: 'Percentage of bees with pollen', free: true, researcher: true },
  { label: 'Wasp and Asian hornet notification', free: false, researcher: true },
  { label: '20 MB and 50 MB downloads', free: false, researcher: true },
  { label: 'Immediate updates', free: false, researcher: true },
];

function FeatureList({ plan }: { plan: 'free' | 'researcher' }) {
  return (
    <ul className="hs-feature-list">
      {FEATURES.map((f) => {
        const yes = f[plan];
        return (
          <li key={f.label} className={yes ? 'hs-yes' : 'hs-no'}>
            <Icon icon={yes ? 'tick-circle' : 'cross-circle'} intent={yes ? 'success' : 'none'} />
            <span>{f.label}</span>
            <Tag minimal round intent={yes ? 'success' : 'none'}>
              {yes ? 'Yes' : 'No'}
            </Tag>
          </li>
        );
      })}
    </ul>
  );
}

export function Plans() {
  const navigate = useNavigate();
  const auth = useAuth();
  const valid = useResource(
    auth.isAuthenticated && auth.email
      ? () => call('POST /api/valid-products-and-file-size').then((body) => body.valid_products)
      : null,
    [auth.isAuthenticated, auth.email],
    (error) => toastError('Error', `Failed to fetch Products. ${errorMessage(error)}`, 5000),
  );
  const products = valid.data ?? [];

  return (
    <div className="hs-page">
      <header className="hs-page-header hs-center">
        <div>
          <h1 className="hs-page-title">Bee Counting Software Plans</h1>
          <p className="hs-page-subtitle">
            {!auth.isAuthenticated
              ? 'Start free, and ask us about the Researcher plan when you need more.'
              : products.length > 0
                ? `You have the following products: ${products.join(', ')}`
                : 'You are currently on the Free Plan.'}
          </p>
        </div>
      </header>
      <div className="hs-plans">
        <Card className="hs-plan-card" elevation={1}>
          <Tag large round minimal intent="success">
            Free
          </Tag>
          <h2 className="hs-plan-name">Free Forever</h2>
          <p className="hs-plan-price">
            €0 <span className="hs-muted">/ forever</span>
          </p>
          <p className="hs-muted">Up to 15 seconds of video, 10 MB per file.</p>
          <FeatureList plan="free" />
          <Button
            intent="primary"
            size="large"
            fill
            text="Get Started"
            onClick={() => navigate('/file-upload-list')}
          />
        </Card>
        <Card className="hs-plan-card hs-plan-featured" elevation={3}>
          <Tag large round intent="warning">
            For research
          </Tag>
          <h2 className="hs-plan-name">Researcher</h2>
          <p className="hs-plan-price">On request</p>
          <p className="hs-muted">50 MB per video, wasp and hornet counts.</p>
          <FeatureList plan="researcher" />
          <Button
            intent="primary"
            size="large"
            fill
            text="Contact Us"
            onClick={() => navigate('/contactus')}
          />
        </Card>
      </div>
      {products.includes('Researcher') ? <HornetAlertsSetting /> : null}
      {auth.isAuthenticated ? <TrainingConsentSetting /> : null}
    </div>
  );
}
