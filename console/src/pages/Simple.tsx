// Small screens: purchase outcome, contact, sample video, not found.
import { Button, Card, NonIdealState } from '@blueprintjs/core';
import { useNavigate } from 'react-router-dom';
import { useAuth } from '../auth.tsx';
import { PageHeader } from '../components/PageHeader.tsx';
import { useAppConfig } from '../lib/config.ts';
import './Simple.css';

export function Success() {
  const navigate = useNavigate();
  return (
    <div className="hs-page">
      <Card className="hs-outcome-card" elevation={2}>
        <NonIdealState
          icon="tick-circle"
          title="Purchase Successful"
          description="Thank you! Your plan is being activated."
          action={
            <Button intent="primary" text="Return to Home" onClick={() => navigate('/home')} />
          }
        />
      </Card>
    </div>
  );
}

export function Cancel() {
  const navigate = useNavigate();
  return (
    <div className="hs-page">
      <Card className="hs-outcome-card" elevation={2}>
        <NonIdealState
          icon="disable"
          title="Payment Canceled"
          description="Your payment was canceled. Please try again or contact us for assistance."
          action={
            <Button intent="primary" text="Return to Home" onClick={() => navigate('/home')} />
          }
        />
      </Card>
    </div>
  );
}

export function Contact() {
  const config = useAppConfig();
  return (
    <div className="hs-page hs-page-narrow">
      <PageHeader
        title="Contact Us"
        subtitle="Questions about the Researcher plan, your reports or your account?"
      />
      <Card className="hs-section-card" elevation={1}>
        <p>Write to us and a member of the team will answer within two working days.</p>
        <p className="hs-contact-line">
          <a
            className="bp6-button bp6-intent-primary bp6-large"
            href={`mailto:${config.contactEmail}`}
          >
            E-mail {config.contactEmail}
          </a>
        </p>
        <p className="hs-muted">
          For the Researcher plan, tell us about your project, the number of hives and the size of
          your videos.
        </p>
      </Card>
    </div>
  );
}

export function VideoPlayer() {
  const auth = useAuth();
  const navigate = useNavigate();
  const config = useAppConfig();
  const signedIn = auth.isAuthenticated && auth.email !== '';
  return (
    <div className="hs-page hs-page-narrow">
      <PageHeader title="Video Player" />
      <Card className="hs-section-card" elevation={1}>
        {signedIn ? (
          <video
            className="hs-sample-video"
            src={config.sampleVideoUrl}
            controls
            aria-label="Sample video"
          />
        ) : (
          <NonIdealState
            icon="lock"
            description="You need to be logged in to watch this video."
            action={
              <Button intent="primary" text="Go to Login" onClick={() => navigate('/login')} />
            }
          />
        )}
      </Card>
    </div>
  );
}

export function NotFound() {
  const navigate = useNavigate();
  return (
    <div className="hs-page">
      <NonIdealState
        icon="search"
        title="Page not found"
        description="That page does not exist."
        action={<Button intent="primary" text="Go to Home" onClick={() => navigate('/')} />}
      />
    </div>
  );
}
