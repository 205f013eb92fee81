import { Alignment, Button, Navbar, NavbarDivider, NavbarGroup } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/core';
import { useEffect, useLayoutEffect, useState } from 'react';
import {
  NavigationType,
  NavLink,
  Outlet,
  useLocation,
  useNavigate,
  useNavigationType,
} from 'react-router-dom';
import { useAuth } from '../auth.tsx';
import { applyTheme, storedTheme } from '../lib/theme.ts';
import { dismissToastsNotOn } from '../lib/toaster.ts';
import type { Theme } from '../lib/theme.ts';
import beeColony from '../assets/bee-colony.svg';
import flag from '../assets/flag.svg';
import './Layout.css';

interface NavItem {
  to: string;
  label: string;
  icon: IconName;
  adminOnly?: boolean;
}

const NAV_ITEMS: NavItem[] = [
  { to: '/home', label: 'Home', icon: 'home' },
  { to: '/file-upload-list', label: 'File Upload', icon: 'cloud-upload' },
  { to: '/locations', label: 'Hive Locations', icon: 'map-marker' },
  { to: '/file-grouping', label: 'File Grouping', icon: 'group-objects', adminOnly: true },
  { to: '/instructions', label: 'Instructions', icon: 'manual' },
  { to: '/beeplans', label: 'Free & Research Plans', icon: 'star' },
  { to: '/csv-file-search', label: 'File Search', icon: 'search', adminOnly: true },
  { to: '/users-list', label: 'Users List', icon: 'people', adminOnly: true },
];

export function ThemeToggle() {
  const [theme, setTheme] = useState<Theme>(() => storedTheme());
  useEffect(() => applyTheme(theme), [theme]);
  const dark = theme === 'dark';
  return (
    <Button
      variant="minimal"
      icon={dark ? 'flash' : 'moon'}
      aria-label={dark ? 'Switch to light mode' : 'Switch to dark mode'}
      title={dark ? 'Switch to light mode' : 'Switch to dark mode'}
      onClick={() => setTheme(dark ? 'light' : 'dark')}
    />
  );
}

function Banner() {
  return (
    <div className="hs-banner" role="banner">
      <img className="hs-banner-colony" src={beeColony} alt="Bee colony at a hive entrance" />
      <div className="hs-banner-text">
        <span className="hs-brand">hivesight</span>
        <span className="hs-banner-tagline">Hive-entrance analysis for beekeepers</span>
      </div>
      <img className="hs-banner-flag" src={flag} alt="hivesight flag" />
    </div>
  );
}

function TopNav() {
  const auth = useAuth();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const items = NAV_ITEMS.filter((item) => !item.adminOnly || auth.isAdmin);
  const logout = async () => {
    await auth.signOut();
    void navigate('/login', { replace: true });
  };
  return (
    <Navbar className="hs-navbar" aria-label="Main navigation">
      <NavbarGroup align={Alignment.START} className="hs-nav-start">
        <Button
          className="hs-nav-burger"
          variant="minimal"
          icon={open ? 'cross' : 'menu'}
          aria-label="Toggle navigation menu"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
        />
        <nav className={`hs-nav-links${open ? ' hs-nav-open' : ''}`} aria-label="Sections">
          {items.map((item) => (
            <NavLink
              key={item.to}
              to={item.to}
              onClick={() => setOpen(false)}
              className={({ isActive }) => `hs-nav-link${isActive ? ' hs-nav-active' : ''}`}
            >
              {item.label}
            </NavLink>
          ))}
        </nav>
      </NavbarGroup>
      <NavbarGroup align={Alignment.END} className="hs-nav-end">
        <span className="hs-nav-user" title={auth.email}>
          {auth.email}
        </span>
        <ThemeToggle />
        <NavbarDivider />
        <Button variant="outlined" icon="log-out" text="Logout" onClick={() => void logout()} />
      </NavbarGroup>
    </Navbar>
  );
}

export function Layout() {
  const auth = useAuth();
  const { pathname } = useLocation();
  const navigation = useNavigationType();
  // A toast speaks about the screen it was raised on; the next screen starts clean.
  useEffect(() => dismissToastsNotOn(pathname), [pathname]);
  // A new screen opens at its top, as a page load does, not at the last screen's scroll (the
  // comparison result opened with its title under the sticky bar); Back and Forward keep theirs.
  useLayoutEffect(() => {
    if (navigation !== NavigationType.Pop) window.scrollTo(0, 0);
  }, [pathname, navigation]);
  const authenticated = auth.isAuthenticated && auth.role !== '';
  return (
    <div className="hs-app">
      <Banner />
      {authenticated ? (
        <TopNav />
      ) : (
        <div className="hs-guest-bar">
          <NavLink to="/instructions" className="hs-nav-link">
            Instructions
          </NavLink>
          <NavLink to="/beeplans" className="hs-nav-link">
            Plans
          </NavLink>
          <NavLink to="/login" className="hs-nav-link">
            Sign in
          </NavLink>
          <ThemeToggle />
        </div>
      )}
      <main className="hs-main" id="main">
        <Outlet />
      </main>
      <footer className="hs-footer">
        <span>
          hivesight · counts bees, pollen carriers, drones, wasps and hornets at the hive entrance
        </span>
      </footer>
    </div>
  );
}
